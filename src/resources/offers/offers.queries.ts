import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Engine } from '../../db/engine.js';
import type { OfferRow } from '../../db/schema.js';
import { filterWhere } from '../../filter/filter.js';
import { OFFERS_FILTER, OFFERS_FILTER_RULES } from './offers.browse.js';
import { columnsOf } from '../../browse/fields.js';
import { OFFER_FIELDS } from './offers.fields.js';

const OFFER_COLUMNS = columnsOf(OFFER_FIELDS).map((column) => `offers.${column}` as const);

/** An offer with the name of its tier. */
export type OfferWithTier = OfferRow & { tier_name: string | null };

const withTier = (db: ReadDb) =>
  db.selectFrom('offers').leftJoin('products', 'products.id', 'offers.product_id').select(OFFER_COLUMNS).select('products.name as tier_name');

export function findOffer(db: ReadDb, id: string): Promise<OfferWithTier | undefined> {
  return withTier(db).where('offers.id', '=', id).executeTakeFirst();
}

/** Every offer the filter's `status` allows, oldest first (Ghost lists offers unpaginated). */
export async function listOffers(db: ReadDb, engine: Engine, filter: string | undefined): Promise<OfferWithTier[]> {
  const where = filterWhere(OFFERS_FILTER, engine, filter, OFFERS_FILTER_RULES);
  let query = withTier(db);
  if (where) query = query.where(where as never);
  return query.orderBy('offers.created_at').orderBy('offers.id').execute();
}

export async function offerNameTaken(db: ReadDb, engine: Engine, name: string, exceptId?: string): Promise<boolean> {
  let query = db
    .selectFrom('offers')
    .select('id')
    .where(engine.text.lower(sql.ref('name')), '=', name.toLowerCase());
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function offerCodeTaken(db: ReadDb, code: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('offers').select('id').where('code', '=', code);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertOffer(db: Db, row: OfferRow): Promise<void> {
  await db.insertInto('offers').values(row).execute();
}

export async function updateOffer(db: Db, id: string, changes: Partial<OfferRow>): Promise<void> {
  await db.updateTable('offers').set(changes).where('id', '=', id).execute();
}
