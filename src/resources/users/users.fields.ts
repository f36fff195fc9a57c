import type { UserRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';

/**
 * Ghost's `users` table. Filters may name `password` and `email` (the Content API drops those statements);
 * a browse never reads the password hash.
 */
export const USER_FIELDS = {
  id: 'text',
  name: 'text',
  slug: 'text',
  password: { type: 'text', list: false },
  email: 'text',
  profile_image: 'text',
  cover_image: 'text',
  bio: 'text',
  website: 'text',
  location: 'text',
  facebook: 'text',
  twitter: 'text',
  threads: 'text',
  bluesky: 'text',
  mastodon: 'text',
  tiktok: 'text',
  youtube: 'text',
  instagram: 'text',
  linkedin: 'text',
  accessibility: 'text',
  status: 'text',
  locale: 'text',
  visibility: 'text',
  meta_title: 'text',
  meta_description: 'text',
  tour: 'text',
  last_seen: 'date',
  comment_notifications: 'boolean',
  free_member_signup_notification: 'boolean',
  paid_subscription_started_notification: 'boolean',
  paid_subscription_canceled_notification: 'boolean',
  mention_notifications: 'boolean',
  recommendation_notifications: 'boolean',
  milestone_notifications: 'boolean',
  donation_notifications: 'boolean',
  created_at: 'date',
  created_by: 'text',
  updated_at: 'date',
  updated_by: 'text',
} as const satisfies FieldMap<UserRow>;
