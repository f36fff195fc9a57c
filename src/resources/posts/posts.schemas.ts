import {
  nullableDateTime,
  nullableJsonString,
  nullableString,
  nullableUri,
  requiring,
  stringEnum,
  Type,
  uncheckedFields,
  type Static,
  type TSchema,
} from '../../http/schema.js';
import { looseBody, schemaBody, type BodyOf } from '../../http/parse-body.js';
import { errors } from '../../errors.js';
import { parseNql } from '../../filter/nql.js';

export type PostType = 'post' | 'page';

/** The docName of each type: the body root key, the envelope key and the word in error messages. */
export const DOC_NAME: Record<PostType, 'posts' | 'pages'> = { post: 'posts', page: 'pages' };

/** Tags, authors, tiers: objects naming one of `keys`, or a bare string. */
function relationItems<P extends Record<string, TSchema>>(base: string, keys: P, alternatives: (keyof P & string)[]) {
  const named = Type.Partial(Type.Object(keys), { anyOf: alternatives.map((key) => ({ required: [key] })) });
  return Type.Array(Type.Union([named, Type.String({ maxLength: 191 })]), { $base: base });
}

const ID = Type.String({ maxLength: 24 });
const NAME = Type.String({ maxLength: 191 });

/**
 * The writable fields of a post or page, in the order of `@tryghost/admin-api-schema` 4.5.10 (the order
 * decides which failure is reported first). Anything else in the body is dropped. Posts and pages differ in
 * the `status` values, `email_subject`/`email_only`/`collections` (posts) and `show_title_and_feature_image` (pages).
 */
const definition = <M extends Record<string, TSchema>, E extends Record<string, TSchema>>(
  single: 'post' | 'page',
  statuses: readonly string[],
  extra: { mid: M; end: E },
) => ({
  title: Type.String({ maxLength: 2000 }),
  slug: Type.String({ maxLength: 191 }),
  mobiledoc: nullableJsonString(1000000000),
  lexical: nullableJsonString(1000000000),
  html: nullableString(1000000000),
  feature_image: nullableUri(2000),
  feature_image_alt: nullableString(65535),
  feature_image_caption: nullableString(65535),
  featured: Type.Boolean(),
  status: stringEnum(statuses),
  locale: nullableString(6),
  visibility: nullableString(),
  visibility_filter: nullableString(),
  tiers: relationItems(`#/definitions/${single}-products`, { id: ID, name: NAME, slug: nullableString(191) }, ['id', 'name', 'slug']),
  meta_title: nullableString(300),
  meta_description: nullableString(500),
  updated_at: nullableDateTime(),
  published_at: nullableDateTime(),
  custom_excerpt: nullableString(300),
  codeinjection_head: nullableString(65535),
  codeinjection_foot: nullableString(65535),
  og_image: nullableUri(2000),
  og_title: nullableString(300),
  og_description: nullableString(500),
  twitter_image: nullableUri(2000),
  twitter_title: nullableString(300),
  twitter_description: nullableString(500),
  ...extra.mid,
  custom_template: nullableString(100),
  canonical_url: nullableUri(2000),
  ...extra.end,
  authors: relationItems(`#/definitions/${single}-authors`, { id: ID, slug: NAME, email: NAME }, ['id', 'slug', 'email']),
  tags: relationItems(`#/definitions/${single}-tags`, { id: ID, name: NAME, slug: nullableString(191) }, ['id', 'name', 'slug']),
});

const options = { $base: '#', additionalProperties: false } as const;

const POST = Type.Partial(
  Type.Object(
    {
      ...definition('post', ['published', 'draft', 'scheduled', 'sent'], {
        mid: { email_subject: nullableString(300) },
        end: { email_only: Type.Boolean() },
      }),
      collections: Type.Array(Type.Union([Type.Object({ id: ID }), ID]), { $base: '#/definitions/post-collections' }),
    },
    options,
  ),
);

const PAGE = Type.Partial(
  Type.Object(
    definition('page', ['published', 'draft', 'scheduled'], {
      mid: {},
      end: { show_title_and_feature_image: Type.Boolean() },
    }),
    options,
  ),
);

/** One post or page as a client sends it (fields of the other type are simply absent). */
export type PostInput = Static<typeof POST> & Static<typeof PAGE>;

/** Ghost's posts input validator after the schema: one content source, and a member-filter visibility whose filter parses. */
function crossFieldRules(type: PostType) {
  return (input: PostInput): void => {
    if (input.mobiledoc && input.lexical) {
      throw errors.validation({
        message: `${type === 'post' ? 'Posts' : 'Pages'} can have either a mobiledoc or a lexical property, never both.`,
        context: 'Both the mobiledoc and lexical properties are set, one must be null',
        help: 'https://ghost.org/docs/admin-api/#the-post-object',
        property: 'lexical',
      });
    }
    const { visibility, visibility_filter: filter } = input;
    if (!visibility || ['public', 'members', 'paid', 'tiers'].includes(visibility) || !filter) return;
    try {
      parseNql(filter);
    } catch {
      throw errors.validation({ message: 'Invalid filter in visibility_filter property', property: 'visibility_filter' });
    }
  };
}

/** Pages get the api-framework's root and id checks first; posts go straight to the schema, as in Ghost. */
export const POST_ADD = {
  post: schemaBody('posts', requiring(POST, ['title']), { check: crossFieldRules('post') }),
  page: schemaBody('pages', requiring(PAGE, ['title']), { rootCheck: true, check: crossFieldRules('page') }),
};
export const POST_EDIT = {
  post: schemaBody('posts', requiring(POST, ['updated_at']), { check: crossFieldRules('post') }),
  page: schemaBody('pages', requiring(PAGE, ['updated_at']), { rootCheck: true, matchUrlId: true, check: crossFieldRules('page') }),
};

/** `PUT /posts/bulk/`: `{"bulk": {"action", "meta"}}`; each action checks its meta itself (400 `IncorrectUsageError`). */
export const POST_BULK = looseBody(
  Type.Object({
    action: Type.Optional(Type.Unknown()),
    meta: Type.Optional(uncheckedFields(['visibility', 'tiers', 'tags'])),
  }),
  { key: 'bulk' },
);
export type BulkInput = BodyOf<typeof POST_BULK>;

/** Includes each endpoint accepts; others are dropped silently. */
export const ADMIN_INCLUDES: Record<PostType, readonly string[]> = {
  post: [
    'tags',
    'authors',
    'authors.roles',
    'email',
    'tiers',
    'newsletter',
    'count.conversions',
    'count.signups',
    'count.paid_conversions',
    'count.clicks',
    'sentiment',
    'count.positive_feedback',
    'count.negative_feedback',
    'post_revisions',
    'post_revisions.author',
  ],
  page: ['tags', 'authors', 'authors.roles', 'tiers', 'count.signups', 'count.paid_conversions', 'post_revisions', 'post_revisions.author'],
};

/** What Ghost embeds when the request names no `include`. */
export const ADMIN_DEFAULT_INCLUDES: Record<PostType, readonly string[]> = {
  post: ['tags', 'authors', 'authors.roles', 'email', 'tiers', 'newsletter', 'count.clicks'],
  page: ['tags', 'authors', 'authors.roles', 'tiers', 'count.signups', 'count.paid_conversions'],
};

export const CONTENT_INCLUDES = ['tags', 'authors', 'tiers', 'sentiment'] as const;

export const FORMATS = ['mobiledoc', 'lexical', 'html', 'plaintext'] as const;
export type Format = (typeof FORMATS)[number];
