import type { ReadDb } from '../db/read-db.js';

/** The Content API key of Ghost's internal frontend integration (migration 0021). */
export function frontendKeySecret(db: ReadDb): Promise<{ secret: string } | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('integrations', 'integrations.id', 'api_keys.integration_id')
    .select('api_keys.secret')
    .where('integrations.slug', '=', 'ghost-internal-frontend')
    .where('api_keys.type', '=', 'content')
    .executeTakeFirst();
}

/** How many members there are, or how many are not free when `paid`. */
export function countMembers(db: ReadDb, paid: boolean) {
  let query = db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('total'));
  if (paid) query = query.where('status', '!=', 'free');
  return query.executeTakeFirst();
}

/** Every tier's id: a preview "as a paid member" (or without a member status) may read any tier's posts. */
export async function allTierIds(db: ReadDb): Promise<string[]> {
  return (await db.selectFrom('products').select('id').execute()).map((row) => row.id);
}
