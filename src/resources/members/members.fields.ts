import type { MemberLabelRow, MemberNewsletterRow, MemberRow, MemberTierRow } from '../../db/schema.js';
import type { FieldType } from '../../filter/spec.js';
import type { FieldMap } from '../../browse/fields.js';

/** Ghost's `members` table: every column filter and order may name and a browse reads. */
export const MEMBER_FIELDS = {
  id: 'text',
  uuid: 'text',
  // The sign-in sessions' key: never filtered on or shown.
  transient_id: { type: 'text', query: false },
  email: 'text',
  status: 'text',
  name: 'text',
  expertise: 'text',
  note: 'text',
  geolocation: 'text',
  enable_comment_notifications: 'boolean',
  email_count: 'number',
  email_opened_count: 'number',
  email_open_rate: 'number',
  email_disabled: 'boolean',
  last_seen_at: 'date',
  last_commented_at: 'date',
  created_at: 'date',
  created_by: 'text',
  updated_at: 'date',
  updated_by: 'text',
} as const satisfies FieldMap<MemberRow>;

/** The join tables' own columns a filter may name (`members_products.expiry_at`). */
export const MEMBER_LABEL_COLUMNS = { id: 'text', member_id: 'text', label_id: 'text', sort_order: 'number' } as const satisfies Record<
  keyof MemberLabelRow,
  FieldType
>;
export const MEMBER_TIER_COLUMNS = {
  id: 'text',
  member_id: 'text',
  product_id: 'text',
  sort_order: 'number',
  expiry_at: 'date',
} as const satisfies Record<keyof MemberTierRow, FieldType>;
export const MEMBER_NEWSLETTER_COLUMNS = { id: 'text', member_id: 'text', newsletter_id: 'text' } as const satisfies Record<
  keyof MemberNewsletterRow,
  FieldType
>;
