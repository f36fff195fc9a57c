import { nullableString, requiring, Type, type Static } from '../../http/schema.js';
import { schemaBody } from '../../http/parse-body.js';

/** The writable label fields of `@tryghost/admin-api-schema` (`labels.json`); others are dropped. */
const LABEL = Type.Partial(
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 191, pattern: '^([^,]|$)' }),
      slug: nullableString(191),
    },
    { $base: 'labels#/definitions/label', additionalProperties: false },
  ),
);

export const LABEL_ADD = schemaBody('labels', requiring(LABEL, ['name']));
export const LABEL_EDIT = schemaBody('labels', LABEL);
export type LabelInput = Static<typeof LABEL>;

export const LABEL_INCLUDES = ['count.members'] as const;
