import type { ReadDb } from '../db/read-db.js';

/**
 * Whether any webhook listens to one of these events. A resource serialises its payloads only then: without
 * a listener the events would be fanned out to nobody, and serialising costs queries inside the write.
 */
export async function anyWebhookListens(db: ReadDb, events: readonly string[]): Promise<boolean> {
  return !!(await db.selectFrom('webhooks').select('id').where('event', 'in', events).limit(1).executeTakeFirst());
}
