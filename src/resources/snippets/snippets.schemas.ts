import { nullableJsonString, requiring, Type, type Static } from '../../http/schema.js';
import { schemaBody } from '../../http/parse-body.js';

/** The snippet definition of `@tryghost/admin-api-schema` 4.5.10; add and edit both require name and mobiledoc. */
const SNIPPET = Type.Partial(
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 191 }),
      mobiledoc: Type.Unsafe<string>({ type: 'string', format: 'json-string', maxLength: 1000000000 }),
      lexical: nullableJsonString(1000000000),
    },
    { $base: 'snippets#/definitions/snippet', additionalProperties: false },
  ),
);

export const SNIPPET_ADD = schemaBody('snippets', requiring(SNIPPET, ['name', 'mobiledoc']));
export const SNIPPET_EDIT = schemaBody('snippets', requiring(SNIPPET, ['name', 'mobiledoc']));
export type SnippetInput = Static<typeof SNIPPET> & { name: string; mobiledoc: string };

/** `formats` a snippet request may ask for; without it a snippet shows its mobiledoc only. */
export const SNIPPET_FORMATS = ['mobiledoc', 'lexical'] as const;
