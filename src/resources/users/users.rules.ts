import { isURL } from '../../db/string-checks.js';
import type { UserRow } from '../../db/schema.js';
import { checkColumns, columnRules } from '../../db/column-rules.js';
import { errors } from '../../errors.js';

/**
 * Writable user columns in Ghost's schema order with the checks of `data/schema/validator.js` (limits are
 * the smaller of the column size and the model's own, e.g. `bio` 250). `password`, ids, authorship and
 * timestamps are not writable through an edit; `last_seen` is kept by the server.
 */
export const USER_RULES = columnRules({
  table: 'users',
  columns: {
    name: { type: 'text', maxLength: 191, nullable: false },
    email: { type: 'text', maxLength: 191, nullable: false, isEmail: true },
    profile_image: { type: 'text', maxLength: 2000 },
    cover_image: { type: 'text', maxLength: 2000 },
    bio: { type: 'text', maxLength: 250 },
    website: { type: 'text', maxLength: 2000, isURL: true },
    location: { type: 'text', maxLength: 150 },
    facebook: { type: 'text', maxLength: 2000 },
    twitter: { type: 'text', maxLength: 2000 },
    threads: { type: 'text', maxLength: 191 },
    bluesky: { type: 'text', maxLength: 191 },
    mastodon: { type: 'text', maxLength: 191 },
    tiktok: { type: 'text', maxLength: 191 },
    youtube: { type: 'text', maxLength: 191 },
    instagram: { type: 'text', maxLength: 191 },
    linkedin: { type: 'text', maxLength: 191 },
    accessibility: { type: 'text', maxLength: 65535 },
    status: { type: 'enum', values: ['active', 'inactive', 'locked', 'warn-1', 'warn-2', 'warn-3', 'warn-4'] },
    locale: { type: 'text', maxLength: 6 },
    visibility: { type: 'enum', values: ['public'] },
    meta_title: { type: 'text', maxLength: 300 },
    meta_description: { type: 'text', maxLength: 500 },
    tour: { type: 'text', maxLength: 65535 },
    comment_notifications: { type: 'boolean' },
    free_member_signup_notification: { type: 'boolean' },
    paid_subscription_started_notification: { type: 'boolean' },
    paid_subscription_canceled_notification: { type: 'boolean' },
    mention_notifications: { type: 'boolean' },
    recommendation_notifications: { type: 'boolean' },
    milestone_notifications: { type: 'boolean' },
    donation_notifications: { type: 'boolean' },
  },
});

export type UserColumn = keyof typeof USER_RULES.columns;
export type UserChanges = Partial<Pick<UserRow, UserColumn>>;

/** Relative image paths become absolute site URLs, as Ghost outputs them. */
function absoluteImage(value: string, siteUrl: string): string {
  return value.startsWith('/') && !value.startsWith('//') ? new URL(value, siteUrl).toString() : value;
}

/** The User model's fixes before validation: a website gets a protocol, images become absolute. */
function normaliser(siteUrl: string) {
  return (column: UserColumn, value: string): string => {
    if (column === 'website' && !isURL(value, { require_protocol: true, protocols: ['http', 'https'] })) return `http://${value}`;
    if (column === 'profile_image' || column === 'cover_image') return absoluteImage(value, siteUrl);
    return value;
  };
}

/** The User model refuses a blank name before the schema validator runs (so its message has no context). */
export function assertNameGiven(name: unknown): void {
  if (name === null || name === undefined || name === '') throw errors.validation('Value in [users.name] cannot be blank.');
}

/**
 * The columns an edit changes, validated against the current row.
 */
export function userChanges(input: { readonly [K in UserColumn]?: unknown }, current: UserRow, siteUrl: string): UserChanges {
  if ('name' in input) assertNameGiven(input.name);
  return checkColumns(USER_RULES, input, { current, normalise: normaliser(siteUrl) });
}
