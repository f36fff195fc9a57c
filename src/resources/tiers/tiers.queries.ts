import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Engine } from '../../db/engine.js';
import type { Database, TierRow } from '../../db/schema.js';
import { errors, GhostError } from '../../errors.js';
import { filterWhere, type FilterRules } from '../../filter/filter.js';
import { TIERS_FILTER } from './tiers.browse.js';
import { columnsOf } from '../../browse/fields.js';
import { TIER_FIELDS } from './tiers.fields.js';

const TIER_COLUMNS = columnsOf(TIER_FIELDS);

export function findTier(db: ReadDb, id: string): Promise<TierRow | undefined> {
  return db.selectFrom('products').select(TIER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/**
 * Every tier the filter matches, unpaginated as in Ghost: the free tier first, then paid tiers by
 * monthly price (Ghost's load order), ties by age.
 */
export async function listTiers(db: ReadDb, engine: Engine, filter: string | undefined, rules: FilterRules = {}): Promise<TierRow[]> {
  let where;
  try {
    where = filterWhere(TIERS_FILTER, engine, filter, rules);
  } catch (err) {
    if (err instanceof GhostError && err.status === 400) throw errors.badRequest('The NQL filter you passed was invalid.');
    throw err;
  }
  let query = db.selectFrom('products').select(TIER_COLUMNS);
  if (where) query = query.where(where);
  return query
    .orderBy(sql`case when products.type = 'free' then 0 else 1 end`)
    .orderBy(sql`coalesce(products.monthly_price, 0)`)
    .orderBy('products.created_at')
    .orderBy('products.id')
    .execute();
}

/** Benefit names of each tier, in their order. */
export async function benefitsOfTiers(db: ReadDb, tierIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(tierIds.map((id) => [id, []]));
  if (tierIds.length === 0) return out;
  const rows = await db
    .selectFrom('products_benefits')
    .innerJoin('benefits', 'benefits.id', 'products_benefits.benefit_id')
    .select(['products_benefits.product_id', 'benefits.name'])
    .where('products_benefits.product_id', 'in', tierIds)
    .orderBy('products_benefits.sort_order')
    .execute();
  for (const row of rows) out.get(row.product_id)!.push(row.name);
  return out;
}

/** Existing benefits named like these (compared without case), by lower-cased name. */
export async function benefitsNamed(db: ReadDb, engine: Engine, names: readonly string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .selectFrom('benefits')
    .select(['id', 'name'])
    .where(
      engine.text.lower(sql.ref('name')),
      'in',
      names.map((name) => name.toLowerCase()),
    )
    .execute();
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
}

export async function slugTaken(db: ReadDb, table: 'products' | 'benefits', slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom(table).select('id').where('slug', '=', slug);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertTier(db: Db, tier: TierRow): Promise<void> {
  await db.insertInto('products').values(tier).execute();
}

export async function updateTier(db: Db, by: { id: string } | { slug: string }, values: Updateable<Database['products']>): Promise<void> {
  const query = db.updateTable('products').set(values);
  await ('id' in by ? query.where('id', '=', by.id) : query.where('slug', '=', by.slug)).execute();
}

export async function insertBenefit(db: Db, row: Insertable<Database['benefits']>): Promise<void> {
  await db.insertInto('benefits').values(row).execute();
}

export async function linkBenefit(db: Db, row: Insertable<Database['products_benefits']>): Promise<void> {
  await db.insertInto('products_benefits').values(row).execute();
}

/** Takes every benefit off a tier (before its new list is linked in order). */
export async function unlinkBenefits(db: Db, tierId: string): Promise<void> {
  await db.deleteFrom('products_benefits').where('product_id', '=', tierId).execute();
}
