/**
 * Reading the values of an export file. Ghost writes them as its database driver returned them: on SQLite
 * timestamps as `2026-01-02 03:04:05` (UTC) and booleans as 0/1, on MySQL ISO timestamps; Ghost 4 files the
 * same. Columns are told apart by name, as Ghost's schema names them the same way in every table.
 */

const DATE_COLUMNS = new Set([
  'created_at',
  'updated_at',
  'published_at',
  'last_seen',
  'last_seen_at',
  'last_commented_at',
  'expiry_at',
  'submitted_at',
  'last_triggered_at',
]);

const BOOLEAN_COLUMNS = new Set([
  'featured',
  'show_title_and_feature_image',
  'email_only',
  'comment_notifications',
  'free_member_signup_notification',
  'paid_subscription_started_notification',
  'paid_subscription_canceled_notification',
  'mention_notifications',
  'recommendation_notifications',
  'milestone_notifications',
  'donation_notifications',
  'active',
  'feedback_enabled',
  'subscribe_on_signup',
  'show_header_icon',
  'show_header_title',
  'show_excerpt',
  'show_feature_image',
  'show_badge',
  'show_header_name',
  'show_post_title_section',
  'show_comment_cta',
  'show_subscription_details',
  'show_latest_posts',
  'enable_comment_notifications',
  'email_disabled',
]);

/** A timestamp of the file, or null when it is none (missing, empty or unreadable). */
export function fileDate(value: unknown): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  if (typeof value !== 'string') return null;
  // SQLite's `YYYY-MM-DD HH:MM:SS` carries no zone; Ghost stores UTC.
  const iso = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function fileBoolean(value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  return value === 1 || value === '1' || value === 'true';
}

/** The file's value of `column`, in the type the column holds (a date or boolean by Ghost's column names). */
export function fileValue(column: string, value: unknown): unknown {
  if (DATE_COLUMNS.has(column)) return fileDate(value);
  if (BOOLEAN_COLUMNS.has(column)) return fileBoolean(value);
  if (value === undefined) return null;
  // A JSON column exported by a driver that parsed it (MySQL json type) comes back as text.
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** Is `column` a timestamp column (an unreadable value there is a problem the report names)? */
export const isDateColumn = (column: string) => DATE_COLUMNS.has(column);
