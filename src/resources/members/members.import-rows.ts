import validator from 'validator';
import type { ReadDb } from '../../db/read-db.js';
import type { TierRow } from '../../db/schema.js';
import { checkColumns, columnRules } from '../../db/column-rules.js';
import type { ImportRow } from './members.csv.js';
import { firstActivePaidTier, latestTierNamed } from './members.queries.js';

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
  tier: TierRow | null;
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

/** A cell as the member model stores it: the parser's booleans become 1 and 0, as in Ghost's database. */
const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : typeof value === 'boolean' ? (value ? '1' : '0') : String(value);

/** A row's checks, in the order Ghost's importer meets them; the message of the first that fails, or the plan. */
export async function check(row: ImportRow, tiers: ReturnType<typeof tierFinder>, now: Date): Promise<Planned | string> {
  // Ghost's validator refuses what is not text (a missing address, a `true` cell) before anything else.
  if (typeof row.email !== 'string') return 'Validator validates strings only';
  if (!validator.isEmail(row.email, { legacy: false } as validator.IsEmailOptions)) return messages.invalidEmail;
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
  if (row.complimentary_plan === true) tier ??= (await tiers.default()) ?? null;
  else if (importTier) return messages.freeMemberNotAllowedImportTier;
  const labels = row.labels.map((label) => String(label.name).trim()).filter((name) => name !== '');
  return {
    email: row.email,
    name: text(row.name),
    note: text(row.note),
    subscribed: row.subscribed !== false,
    // Members dated in the future would not show in the admin list (Ghost moves them to now).
    createdAt: created > now ? now : created,
    labels,
    tier: row.complimentary_plan === true ? tier : null,
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
    tier: later.tier ?? earlier.tier,
  };
}
