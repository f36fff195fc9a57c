import type { FieldType, Fields } from '../spec.js';

/** `{a: 'text', b: 'text', …}` from column names grouped by type: declarations stay one line per type. */
export function columns(groups: Partial<Record<FieldType, readonly string[]>>): Fields {
  const out: Record<string, FieldType> = {};
  for (const [type, names] of Object.entries(groups) as [FieldType, readonly string[]][]) {
    for (const name of names) out[name] = type;
  }
  return Object.freeze(out);
}

/** Ghost's `tags` table. */
export const TAG_COLUMNS = columns({
  text: ['id', 'name', 'slug', 'description', 'feature_image', 'parent_id', 'visibility', 'og_image', 'og_title', 'og_description',
    'twitter_image', 'twitter_title', 'twitter_description', 'meta_title', 'meta_description', 'codeinjection_head', 'codeinjection_foot',
    'canonical_url', 'accent_color', 'created_by', 'updated_by'],
  date: ['created_at', 'updated_at'],
});

/** Ghost's `users` table (filters may name `password` and `email`; the Content API drops those statements). */
export const USER_COLUMNS = columns({
  text: ['id', 'name', 'slug', 'password', 'email', 'profile_image', 'cover_image', 'bio', 'website', 'location', 'facebook', 'twitter',
    'threads', 'bluesky', 'mastodon', 'tiktok', 'youtube', 'instagram', 'linkedin', 'accessibility', 'status', 'locale', 'visibility',
    'meta_title', 'meta_description', 'tour', 'created_by', 'updated_by'],
  date: ['last_seen', 'created_at', 'updated_at'],
  boolean: ['comment_notifications', 'free_member_signup_notification', 'paid_subscription_started_notification',
    'paid_subscription_canceled_notification', 'mention_notifications', 'recommendation_notifications', 'milestone_notifications',
    'donation_notifications'],
});

/** Ghost's `posts` table (posts and pages). */
export const POST_COLUMNS = columns({
  text: ['id', 'uuid', 'title', 'slug', 'mobiledoc', 'lexical', 'html', 'comment_id', 'plaintext', 'feature_image', 'type', 'status',
    'locale', 'visibility', 'email_recipient_filter', 'created_by', 'updated_by', 'published_by', 'custom_excerpt', 'codeinjection_head',
    'codeinjection_foot', 'custom_template', 'canonical_url', 'newsletter_id'],
  date: ['created_at', 'updated_at', 'published_at'],
  boolean: ['featured', 'show_title_and_feature_image'],
});

/** Ghost's `posts_meta` table without its keys. */
export const POST_META_COLUMNS = columns({
  text: ['og_image', 'og_title', 'og_description', 'twitter_image', 'twitter_title', 'twitter_description', 'meta_title',
    'meta_description', 'email_subject', 'frontmatter', 'feature_image_alt', 'feature_image_caption'],
  boolean: ['email_only'],
});
