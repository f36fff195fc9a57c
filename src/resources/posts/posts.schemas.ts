import { nullableString, nullableUri, type Schema } from '../../http/body-schema.js';

export type PostType = 'post' | 'page';

/** The docName of each type: the body root key, the envelope key and the word in error messages. */
export const DOC_NAME: Record<PostType, 'posts' | 'pages'> = { post: 'posts', page: 'pages' };

function relationItems(base: string, keys: Record<string, Schema>, alternatives: string[]): Schema {
  return {
    $base: base,
    type: 'array',
    items: {
      anyOf: [
        { type: 'object', properties: keys, anyOf: alternatives.map((key) => ({ required: [key] })) },
        { type: 'string', maxLength: 191 },
      ],
    },
  };
}

/**
 * The writable fields of a post or page, in the order of `@tryghost/admin-api-schema` 4.5.10 (the order
 * decides which failure is reported first). Anything else in the body is dropped.
 */
function postDefinition(type: PostType): Schema {
  const single = type === 'post' ? 'post' : 'page';
  const properties: Record<string, Schema> = {
    title: { type: 'string', maxLength: 2000 },
    slug: { type: 'string', maxLength: 191 },
    mobiledoc: { type: ['string', 'null'], format: 'json-string', maxLength: 1000000000 },
    lexical: { type: ['string', 'null'], format: 'json-string', maxLength: 1000000000 },
    html: { type: ['string', 'null'], maxLength: 1000000000 },
    feature_image: nullableUri(2000),
    feature_image_alt: nullableString(65535),
    feature_image_caption: nullableString(65535),
    featured: { type: 'boolean' },
    status: { type: 'string', enum: type === 'post' ? ['published', 'draft', 'scheduled', 'sent'] : ['published', 'draft', 'scheduled'] },
    locale: nullableString(6),
    visibility: nullableString(),
    visibility_filter: nullableString(),
    tiers: relationItems(`#/definitions/${single}-products`, {
      id: { type: 'string', maxLength: 24 }, name: { type: 'string', maxLength: 191 }, slug: { type: ['string', 'null'], maxLength: 191 },
    }, ['id', 'name', 'slug']),
    meta_title: nullableString(300),
    meta_description: nullableString(500),
    updated_at: { type: ['string', 'null'], format: 'date-time' },
    published_at: { type: ['string', 'null'], format: 'date-time' },
    custom_excerpt: nullableString(300),
    codeinjection_head: nullableString(65535),
    codeinjection_foot: nullableString(65535),
    og_image: nullableUri(2000),
    og_title: nullableString(300),
    og_description: nullableString(500),
    twitter_image: nullableUri(2000),
    twitter_title: nullableString(300),
    twitter_description: nullableString(500),
    ...(type === 'post' ? { email_subject: nullableString(300) } : {}),
    custom_template: nullableString(100),
    canonical_url: nullableUri(2000),
    ...(type === 'post' ? { email_only: { type: 'boolean' } } : { show_title_and_feature_image: { type: 'boolean' } }),
    authors: relationItems(`#/definitions/${single}-authors`, {
      id: { type: 'string', maxLength: 24 }, slug: { type: 'string', maxLength: 191 }, email: { type: 'string', maxLength: 191 },
    }, ['id', 'slug', 'email']),
    tags: relationItems(`#/definitions/${single}-tags`, {
      id: { type: 'string', maxLength: 24 }, name: { type: 'string', maxLength: 191 }, slug: { type: ['string', 'null'], maxLength: 191 },
    }, ['id', 'name', 'slug']),
  };
  if (type === 'post') {
    properties.collections = {
      $base: '#/definitions/post-collections',
      type: 'array',
      items: { anyOf: [{ type: 'object', properties: { id: { type: 'string', maxLength: 24 } }, required: ['id'] }, { type: 'string', maxLength: 24 }] },
    };
  }
  return { $base: '#', type: 'object', additionalProperties: false, properties };
}

function envelope(type: PostType, required: 'title' | 'updated_at'): Schema {
  const docName = DOC_NAME[type];
  return {
    type: 'object',
    additionalProperties: false,
    required: [docName],
    properties: {
      [docName]: { type: 'array', minItems: 1, maxItems: 1, items: { type: 'object', required: [required], allOf: [postDefinition(type)] } },
    },
  };
}

export const ADD_SCHEMA: Record<PostType, Schema> = { post: envelope('post', 'title'), page: envelope('page', 'title') };
export const EDIT_SCHEMA: Record<PostType, Schema> = { post: envelope('post', 'updated_at'), page: envelope('page', 'updated_at') };

/** Includes each endpoint accepts; others are dropped silently. */
export const ADMIN_INCLUDES: Record<PostType, readonly string[]> = {
  post: ['tags', 'authors', 'authors.roles', 'email', 'tiers', 'newsletter', 'count.conversions', 'count.signups', 'count.paid_conversions',
    'count.clicks', 'sentiment', 'count.positive_feedback', 'count.negative_feedback', 'post_revisions', 'post_revisions.author'],
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
