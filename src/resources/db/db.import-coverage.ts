import type { ImportRun } from './db.import-run.js';
import { columnsOf } from './db.tables.js';

/**
 * What of a file the importer reads, and why the rest is not imported: every table, and every column of the
 * tables it reads, that holds something and has no place here is named in `problems` with its count. Settings
 * keys are named by db.import-settings.ts, archive entries by db.import-archive.ts.
 */

/** Columns older Ghost files have that the importers read besides Ghost 5's (db.import-posts.ts and friends). */
const LEGACY: Record<string, readonly string[]> = {
  posts: ['page', 'amp', 'send_email_when_published', 'author_id', ...columnsOf('posts_meta')],
  users: ['roles'],
};

/** Tables read, with the columns read (the export's columns of the table, as db.tables.ts lists them). */
const READ: Record<string, readonly string[]> = Object.fromEntries(
  [
    'posts',
    'posts_meta',
    'users',
    'posts_authors',
    'roles_users',
    'tags',
    'posts_tags',
    'newsletters',
    'products',
    'posts_products',
    'benefits',
    'products_benefits',
    'offers',
    'snippets',
    'custom_theme_settings',
    'members',
    'labels',
    'members_labels',
    'members_newsletters',
    'members_products',
  ].map((table) => [table, [...columnsOf(table), ...(LEGACY[table] ?? [])]]),
);

/** Columns the importers read and then leave out on purpose (a value of the file is not kept), and why. */
const DROPPED: Record<string, string> = {
  'tags.parent_id': 'Ghost 5 shows no tag hierarchy; a parent of the old site would point nowhere.',
  'newsletters.sender_email': 'An address to send from is verified by the site that sends, as Ghost drops it.',
  'offers.stripe_coupon_id': 'Stripe records are not kept: this site has no Stripe connection.',
  'products.monthly_price_id': 'Stripe records are not kept: this site has no Stripe connection.',
  'products.yearly_price_id': 'Stripe records are not kept: this site has no Stripe connection.',
};

/** Columns a file has that are not stored here, and why. */
const COLUMN_REASONS: Record<string, string> = {
  ...DROPPED,
  'posts.auto_excerpt': 'Computed here from the post.',
  'posts.reading_time': 'Computed here from the post.',
};

/** Tables read elsewhere: settings and roles (matched by name), Stripe rows (prices read for tiers). */
const READ_ELSEWHERE = new Set(['settings', 'roles', 'stripe_prices']);

/** Why a table is not imported. */
function tableReason(table: string): string {
  if (/stripe|subscription|payment/.test(table)) return 'Stripe records are not kept: this site has no Stripe connection.';
  if (/^members_.*events$|^email|^offer_redemptions$|^suppressions$|^members_(feedback|click)/.test(table)) {
    return 'Member and e-mail activity history is not imported.';
  }
  if (/^(permissions|permissions_roles|permissions_users|roles)$/.test(table)) return "Permissions are the site's own.";
  if (/^(sessions|tokens|brute|invites|api_keys|integrations|webhooks|migrations|migrations_lock|jobs|actions)$/.test(table)) {
    return 'Sign-in state, keys, integrations and the audit log belong to the site they were made on.';
  }
  if (/^comment/.test(table)) return 'Comments are not built here yet.';
  if (/^recommendation/.test(table)) return 'Recommendations are not imported yet.';
  if (/^(mobiledoc_revisions|post_revisions)$/.test(table)) return 'Post revision history is not imported.';
  return 'This site has no place for this table.';
}

const hasValue = (value: unknown) => value !== null && value !== undefined && value !== '';

/** Lists the tables and columns of the file that hold something and are not imported. */
export function reportNotImported(run: ImportRun): void {
  for (const [table, rows] of Object.entries(run.data)) {
    if (!Array.isArray(rows) || rows.length === 0) continue;
    const read = READ[table];
    if (!read) {
      if (!READ_ELSEWHERE.has(table)) run.notImported(`table "${table}"`, rows.length, tableReason(table), table);
      continue;
    }
    const known = new Set(read.filter((column) => !Object.hasOwn(DROPPED, `${table}.${column}`)));
    const counts = new Map<string, number>();
    for (const row of rows as Record<string, unknown>[]) {
      if (row === null || typeof row !== 'object') continue;
      for (const [column, value] of Object.entries(row)) {
        if (!known.has(column) && hasValue(value)) counts.set(column, (counts.get(column) ?? 0) + 1);
      }
    }
    for (const [column, count] of counts) {
      const reason = COLUMN_REASONS[`${table}.${column}`] ?? 'This site has no such column (the file is from a newer Ghost).';
      run.notImported(`column "${table}.${column}"`, count, reason, table);
    }
  }
}
