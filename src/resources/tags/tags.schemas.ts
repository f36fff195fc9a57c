import { nullableString, nullableUri, requiring, stringEnum, Type, type Static } from '../../http/schema.js';
import { SEO_FIELDS } from '../../content/seo-fields.js';
import { schemaBody } from '../../http/parse-body.js';

/** The writable tag fields of `@tryghost/admin-api-schema` 4.5.10, in its order; others are dropped. */
const TAG = Type.Partial(
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 191, pattern: '^([^,]|$)' }),
      slug: nullableString(191),
      description: nullableString(500),
      feature_image: nullableUri(2000),
      visibility: stringEnum(['public', 'internal']),
      meta_title: nullableString(300),
      meta_description: nullableString(500),
      og_image: nullableUri(2000),
      og_title: nullableString(300),
      og_description: nullableString(500),
      twitter_image: nullableUri(2000),
      twitter_title: nullableString(300),
      twitter_description: nullableString(500),
      codeinjection_head: nullableString(65535),
      codeinjection_foot: nullableString(65535),
      canonical_url: nullableUri(2000),
      accent_color: nullableString(50),
    },
    { $base: 'tags#/definitions/tag', additionalProperties: false },
  ),
);

export const TAG_ADD = schemaBody('tags', requiring(TAG, ['name']));
export const TAG_EDIT = schemaBody('tags', TAG);
export type TagInput = Static<typeof TAG>;

/** Columns a client may write, in table order. */
export const TAG_WRITABLE = [
  'name',
  'slug',
  'description',
  'feature_image',
  'visibility',
  ...SEO_FIELDS,
  'codeinjection_head',
  'codeinjection_foot',
  'canonical_url',
  'accent_color',
] as const;

export type TagWritable = (typeof TAG_WRITABLE)[number];

/** Stored as `__GHOST_URL__/…` when they point at the site. */
export const TAG_URL_FIELDS = ['feature_image', 'og_image', 'twitter_image', 'canonical_url'] as const;
export const TAG_HTML_FIELDS = ['codeinjection_head', 'codeinjection_foot'] as const;

export const TAG_INCLUDES = ['count.posts'] as const;
