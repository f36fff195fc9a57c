import type { PostAuthorRow, PostMetaRow, PostRow, PostTagRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';
import type { FieldType } from '../../filter/spec.js';

/**
 * Ghost's `posts` table (posts and pages). `reading_time` is ours (stored at write time, migration 0004),
 * not a Ghost column, so filter and order cannot name it.
 */
export const POST_FIELDS = {
  id: 'text',
  uuid: 'text',
  title: 'text',
  slug: 'text',
  mobiledoc: 'text',
  lexical: 'text',
  html: 'text',
  comment_id: 'text',
  plaintext: 'text',
  feature_image: 'text',
  featured: 'boolean',
  type: 'text',
  status: 'text',
  locale: 'text',
  visibility: 'text',
  email_recipient_filter: 'text',
  created_at: 'date',
  created_by: 'text',
  updated_at: 'date',
  updated_by: 'text',
  published_at: 'date',
  published_by: 'text',
  custom_excerpt: 'text',
  codeinjection_head: 'text',
  codeinjection_foot: 'text',
  custom_template: 'text',
  canonical_url: 'text',
  newsletter_id: 'text',
  show_title_and_feature_image: 'boolean',
  reading_time: { type: 'number', query: false },
} as const satisfies FieldMap<PostRow>;

/** Columns the Content API never reads: the source formats (the largest columns) and those only staff see. */
export const CONTENT_HIDDEN_COLUMNS: readonly (keyof PostRow)[] = [
  'mobiledoc',
  'lexical',
  'locale',
  'email_recipient_filter',
  'created_by',
  'updated_by',
  'published_by',
  'newsletter_id',
];

/** Ghost's `posts_meta` table without its keys (filter reaches it as a relation; its columns are shorthands). */
export const POST_META_COLUMNS = {
  og_image: 'text',
  og_title: 'text',
  og_description: 'text',
  twitter_image: 'text',
  twitter_title: 'text',
  twitter_description: 'text',
  meta_title: 'text',
  meta_description: 'text',
  email_subject: 'text',
  frontmatter: 'text',
  feature_image_alt: 'text',
  feature_image_caption: 'text',
  email_only: 'boolean',
} as const satisfies Record<Exclude<keyof PostMetaRow, 'id' | 'post_id'>, FieldType>;

export const POST_TAG_COLUMNS = { id: 'text', post_id: 'text', tag_id: 'text', sort_order: 'number' } as const satisfies Record<keyof PostTagRow, FieldType>;

export const POST_AUTHOR_COLUMNS = { id: 'text', post_id: 'text', author_id: 'text', sort_order: 'number' } as const satisfies Record<
  keyof PostAuthorRow,
  FieldType
>;
