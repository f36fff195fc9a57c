import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { RecommendationRow } from '../../db/schema.js';
import { columnsOf } from '../../browse/fields.js';
import { RECOMMENDATION_FIELDS } from './recommendations.fields.js';

const RECOMMENDATION_COLUMNS = columnsOf(RECOMMENDATION_FIELDS);

export function findRecommendation(db: ReadDb, id: string): Promise<RecommendationRow | undefined> {
  return db.selectFrom('recommendations').select(RECOMMENDATION_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Host without `www.` and path without its trailing slash: what makes two recommendation URLs the same site. */
function siteKey(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname.replace('www.', '')}${parsed.pathname.replace(/\/$/, '')}`;
}

/**
 * The recommendation of the same site as `url`, ignoring protocol, `www.`, query, fragment and a trailing
 * slash, as Ghost matches them; `exceptId` leaves one record out.
 */
export async function findRecommendationByUrl(db: ReadDb, url: string, exceptId?: string): Promise<RecommendationRow | undefined> {
  const key = siteKey(url);
  // A site recommends a handful of others: comparing them all is simpler than matching URLs in SQL.
  let query = db.selectFrom('recommendations').select(RECOMMENDATION_COLUMNS);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.execute()).find((row) => siteKey(row.url) === key);
}

export async function insertRecommendation(db: Db, row: RecommendationRow): Promise<void> {
  await db.insertInto('recommendations').values(row).execute();
}

export async function updateRecommendation(db: Db, id: string, changes: Partial<RecommendationRow>): Promise<void> {
  await db.updateTable('recommendations').set(changes).where('id', '=', id).execute();
}

export async function deleteRecommendationRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('recommendations').where('id', '=', id).execute();
}
