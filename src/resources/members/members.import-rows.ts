import { isEmail, type IsEmailOptions } from '../../db/string-checks.js';
import type { ReadDb } from '../../db/read-db.js';
import type { TierRow } from '../../db/schema.js';
import { checkColumns, columnRules } from '../../db/column-rules.js';
import type { ImportRow } from './members.csv.js';
import { firstActivePaidTier, latestTierNamed, newsletterIdsByName } from './members.queries.js';

/** The members CSV importer's row checks (`members.import.ts` writes what they plan), in Ghost's order and words. */

/** The columns the member model checks, with its messages. */
const MEMBER_COLUMNS = columnRules({
  table: 'members',
  columns: {
    email: { type: 'text', maxLength: 191, nullable: false },
    name: { type: 'text', maxLength: 191 },
    note: { type: 'text', maxLength: 2000 },
  },
});

const messages = {
  invalidEmail: 'Invalid Email',
  freeMemberNotAllowedImportTier: 'You cannot import a free member with a specified tier.',
  invalidImportTier: (tier: string) => `"${tier}" is not a valid tier.`,
  invalidNewsletter: (newsletter: string) => `"${newsletter}" is not a valid newsletter.`,
  stripeNotConnected: 'Cannot link Stripe Customer without a Stripe Connection',
};

/** What one good row (or several rows of one address) asks for. */
export interface Planned {
  email: string;
  name: string | null;
  note: string | null;
  subscribed: boolean;
  createdAt: Date;
  labels: string[];
  /** The comped member's tiers: `import_tier`, else the ones the `tiers` column names, else the default paid tier. */
  tiers: TierRow[];
  /** The newsletters the `newsletters` column names; null: the ones new members join. */
  newsletters: string[] | null;
}

/** Tiers as the importer finds them: the default paid tier for comped rows, others by name (the last made wins, as in Ghost). */
export function tierFinder(db: ReadDb) {
  const byName = new Map<string, Promise<TierRow | undefined>>();
  let fallback: Promise<TierRow | undefined> | undefined;
  return {
    named: (name: string) => {
      if (!byName.has(name)) {
        byName.set(name, latestTierNamed(db, name));
      }
      return byName.get(name)!;
    },
    default: () => (fallback ??= firstActivePaidTier(db)),
  };
}

/** Newsletters by name (without case), for a file that names them. */
export function newsletterFinder(db: ReadDb) {
  let all: Promise<Map<string, string>> | undefined;
  return async (name: string) => (await (all ??= newsletterIdsByName(db))).get(name.toLowerCase());
}

/** The names a cell lists, comma-separated (Ghost's export joins tier and label names so). */
const listed = (cell: unknown) =>
  typeof cell === 'string'
    ? cell
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    : [];

/** A cell as the member model stores it: the parser's booleans become 1 and 0, as in Ghost's database. */
const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : typeof value === 'boolean' ? (value ? '1' : '0') : String(value);

/** A row's checks, in the order Ghost's importer meets them; the message of the first that fails, or the plan. */
export async function check(
  row: ImportRow,
  tiers: ReturnType<typeof tierFinder>,
  newsletterId: ReturnType<typeof newsletterFinder>,
  now: Date,
): Promise<Planned | string> {
  // Ghost's validator refuses what is not text (a missing address, a `true` cell) before anything else.
  if (typeof row.email !== 'string') return 'Validator validates strings only';
  if (!isEmail(row.email, { legacy: false } as IsEmailOptions)) return messages.invalidEmail;
  try {
    checkColumns(MEMBER_COLUMNS, { email: row.email, name: text(row.name), note: text(row.note) });
  } catch (err) {
    return (err as Error).message;
  }
  const created = row.created_at ? new Date(String(row.created_at)) : now;
  if (Number.isNaN(created.getTime())) return 'Date format for `created_at` is invalid.';
  let tier: TierRow | null = null;
  const importTier = text(row.import_tier);
  if (importTier) {
    tier = (await tiers.named(importTier)) ?? null;
    if (!tier) return messages.invalidImportTier(importTier);
  }
  // Stripe is never connected here: a Stripe customer cannot be linked.
  if (row.stripe_customer_id) return messages.stripeNotConnected;
  const named: TierRow[] = [];
  if (row.complimentary_plan === true && !tier) {
    for (const name of listed(row.tiers)) {
      const found = await tiers.named(name);
      if (!found) return messages.invalidImportTier(name);
      if (found.type === 'paid' && !named.some((t) => t.id === found.id)) named.push(found);
    }
  }
  if (row.complimentary_plan === true && named.length === 0) tier ??= (await tiers.default()) ?? null;
  else if (importTier && row.complimentary_plan !== true) return messages.freeMemberNotAllowedImportTier;
  let newsletters: string[] | null = null;
  if (listed(row.newsletters).length > 0) {
    newsletters = [];
    for (const name of listed(row.newsletters)) {
      const id = await newsletterId(name);
      if (!id) return messages.invalidNewsletter(name);
      newsletters.push(id);
    }
  }
  const labels = row.labels.map((label) => String(label.name).trim()).filter((name) => name !== '');
  return {
    email: row.email,
    name: text(row.name),
    note: text(row.note),
    subscribed: row.subscribed !== false,
    // Members dated in the future would not show in the admin list (Ghost moves them to now).
    createdAt: created > now ? now : created,
    labels,
    tiers: row.complimentary_plan !== true ? [] : named.length > 0 ? named : tier ? [tier] : [],
    newsletters,
  };
}

/** A later row of the same address, applied as Ghost's importer updates the member the earlier one made. */
export function merge(earlier: Planned, later: Planned): Planned {
  return {
    ...earlier,
    name: later.name || earlier.name,
    note: later.note || earlier.note,
    // Subscribed again only if it still is; a `false` unsubscribes.
    subscribed: earlier.subscribed && later.subscribed,
    labels: [...earlier.labels, ...later.labels],
    tiers: later.tiers.length > 0 ? later.tiers : earlier.tiers,
    newsletters: later.newsletters ? [...new Set([...(earlier.newsletters ?? []), ...later.newsletters])] : earlier.newsletters,
  };
}
