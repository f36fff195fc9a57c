import validator from 'validator';
import type { UserRow } from '../../db/schema.js';
import { errors } from '../../errors.js';

/**
 * Writable user columns in Ghost's schema order (errors are reported for the first failing column),
 * with the checks of `data/schema/validator.js`. `password`, ids, authorship and timestamps are not
 * writable through an edit; `last_seen` is kept by the server.
 */
type Column =
  | { kind: 'text'; max: number; nullable: boolean; limit?: number; check?: 'email' | 'url' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'boolean' };

const text = (max: number, extra: { limit?: number; check?: 'email' | 'url'; nullable?: boolean } = {}): Column =>
  ({ kind: 'text', max, nullable: extra.nullable ?? true, limit: extra.limit, check: extra.check });

export const USER_STATUSES = ['active', 'inactive', 'locked', 'warn-1', 'warn-2', 'warn-3', 'warn-4'] as const;

const COLUMNS = {
  name: text(191, { nullable: false }),
  email: text(191, { nullable: false, check: 'email' }),
  profile_image: text(2000),
  cover_image: text(2000),
  bio: text(65535, { limit: 250 }),
  website: text(2000, { check: 'url' }),
  location: text(65535, { limit: 150 }),
  facebook: text(2000),
  twitter: text(2000),
  threads: text(191),
  bluesky: text(191),
  mastodon: text(191),
  tiktok: text(191),
  youtube: text(191),
  instagram: text(191),
  linkedin: text(191),
  accessibility: text(65535),
  status: { kind: 'enum', values: USER_STATUSES },
  locale: text(6),
  visibility: { kind: 'enum', values: ['public'] },
  meta_title: text(2000, { limit: 300 }),
  meta_description: text(2000, { limit: 500 }),
  tour: text(65535),
  comment_notifications: { kind: 'boolean' },
  free_member_signup_notification: { kind: 'boolean' },
  paid_subscription_started_notification: { kind: 'boolean' },
  paid_subscription_canceled_notification: { kind: 'boolean' },
  mention_notifications: { kind: 'boolean' },
  recommendation_notifications: { kind: 'boolean' },
  milestone_notifications: { kind: 'boolean' },
  donation_notifications: { kind: 'boolean' },
} as const satisfies Record<string, Column>;

export type UserColumn = keyof typeof COLUMNS;
export type UserChanges = Partial<Pick<UserRow, UserColumn>>;

/** Fields whose change is visible on the public site (Ghost then sends `X-Cache-Invalidate: /*`). */
export const PUBLIC_USER_FIELDS = new Set<string>([
  'name', 'slug', 'profile_image', 'cover_image', 'bio', 'website', 'location', 'facebook', 'twitter', 'mastodon', 'youtube',
  'linkedin', 'bluesky', 'instagram', 'tiktok', 'threads', 'status', 'visibility', 'meta_title', 'meta_description',
]);

const invalid = (message: string, column: string) => errors.validation({ message, context: `users.${column}` });
const length = (value: string) => [...value].length;

function asText(value: unknown, column: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw invalid(`Validation (isString) failed for ${column}`, column);
}

function asBoolean(value: unknown, column: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1 || value === '0' || value === '1') return Number(value) === 1;
  if (value === 'true' || value === 'false') return value === 'true';
  throw invalid(`Value in [users.${column}] must be one of true, false, 0 or 1.`, column);
}

/** Relative image paths become absolute site URLs, as Ghost outputs them. */
function absoluteImage(value: string, siteUrl: string): string {
  return value.startsWith('/') && !value.startsWith('//') ? new URL(value, siteUrl).toString() : value;
}

/**
 * The columns an edit changes, validated against the current row. Only changed values are checked, as in
 * Ghost, so a legacy value the user does not touch never blocks a save.
 */
export function userChanges(input: Record<string, unknown>, current: UserRow, siteUrl: string): UserChanges {
  if ('name' in input && !asText(input.name, 'name')) throw errors.validation('Value in [users.name] cannot be blank.');
  const out: Record<string, unknown> = {};
  for (const [column, spec] of Object.entries(COLUMNS) as [UserColumn, Column][]) {
    if (!(column in input)) continue;
    const raw = input[column];
    if (spec.kind === 'boolean') {
      if (raw === current[column]) continue;
      out[column] = asBoolean(raw, column);
      continue;
    }
    let value = asText(raw, column);
    if (value === '' && spec.kind === 'text' && spec.nullable) value = null;
    if (value !== null && column === 'website' && !validator.isURL(value, { require_protocol: true, protocols: ['http', 'https'] })) value = `http://${value}`;
    if (value !== null && (column === 'profile_image' || column === 'cover_image')) value = absoluteImage(value, siteUrl);
    if (value === current[column]) continue;
    if (spec.kind === 'enum') {
      if (value === null || !spec.values.includes(value)) throw invalid(`Validation (isIn) failed for ${column}`, column);
    } else if (value === null || value === '') {
      if (!spec.nullable) throw invalid(`Value in [users.${column}] cannot be blank.`, column);
    } else {
      const max = Math.min(spec.max, spec.limit ?? spec.max);
      if (length(value) > max) throw invalid(`Value in [users.${column}] exceeds maximum length of ${max} characters.`, column);
      if (spec.check === 'email' && !validator.isEmail(value)) throw invalid(`Validation (isEmail) failed for ${column}`, column);
      if (spec.check === 'url' && !validator.isURL(value, { require_protocol: false })) throw invalid(`Validation (isEmptyOrURL) failed for ${column}`, column);
    }
    out[column] = value;
  }
  return out as UserChanges;
}
