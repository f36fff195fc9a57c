import type { FieldType, Fields } from '../spec.js';

const TYPES: Record<string, FieldType> = { date: 'date', bool: 'boolean', int: 'number' };

/**
 * Columns in schema order from `name` / `name:date|bool|int` words (text by default). Order matters:
 * `order=<field>` picks the first column whose name ends with the field, as Ghost does.
 */
export function schema(words: string): Fields {
  const out: Record<string, FieldType> = {};
  for (const word of words.trim().split(/\s+/)) {
    const [name, type] = word.split(':') as [string, string | undefined];
    out[name] = type ? TYPES[type]! : 'text';
  }
  return Object.freeze(out);
}

/** Ghost's `tags` table. */
export const TAG_COLUMNS = schema(`
  id name slug description feature_image parent_id visibility og_image og_title og_description twitter_image twitter_title
  twitter_description meta_title meta_description codeinjection_head codeinjection_foot canonical_url accent_color
  created_at:date created_by updated_at:date updated_by`);

/** Ghost's `users` table (filters may name `password` and `email`; the Content API drops those statements). */
export const USER_COLUMNS = schema(`
  id name slug password email profile_image cover_image bio website location facebook twitter threads bluesky mastodon tiktok
  youtube instagram linkedin accessibility status locale visibility meta_title meta_description tour last_seen:date
  comment_notifications:bool free_member_signup_notification:bool paid_subscription_started_notification:bool
  paid_subscription_canceled_notification:bool mention_notifications:bool recommendation_notifications:bool
  milestone_notifications:bool donation_notifications:bool created_at:date created_by updated_at:date updated_by`);

/** Ghost's `posts` table (posts and pages). */
export const POST_COLUMNS = schema(`
  id uuid title slug mobiledoc lexical html comment_id plaintext feature_image featured:bool type status locale visibility
  email_recipient_filter created_at:date created_by updated_at:date updated_by published_at:date published_by custom_excerpt
  codeinjection_head codeinjection_foot custom_template canonical_url newsletter_id show_title_and_feature_image:bool`);

/** Ghost's `posts_meta` table without its keys. */
export const POST_META_COLUMNS = schema(`
  og_image og_title og_description twitter_image twitter_title twitter_description meta_title meta_description email_subject
  frontmatter feature_image_alt feature_image_caption email_only:bool`);

/** Ghost's `orderAttributes()`: every column of the table, qualified, in schema order. */
export function attributesOf(table: string, fields: Fields): { name: string; type: FieldType }[] {
  return Object.entries(fields).map(([name, type]) => ({ name: `${table}.${name}`, type }));
}
