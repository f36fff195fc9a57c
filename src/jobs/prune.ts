import type { Db } from '../db/connect.js';

/**
 * Keeps the outbox and the delivery history from growing without end: finished deliveries older than the
 * retention go, then finished events that no delivery refers to any more (a redelivery reads its event's
 * payload, so an event stays as long as one of its deliveries does), and background jobs that ended (their
 * results, readable until then). Idempotent: instances may prune at once.
 */
export async function pruneHistory(db: Db, olderThan: Date): Promise<{ deliveries: number; events: number; jobs: number }> {
  const deliveries = await db
    .deleteFrom('webhook_deliveries')
    .where('status', 'in', ['delivered', 'failed'])
    .where('updated_at', '<', olderThan)
    .executeTakeFirst();
  const events = await db
    .deleteFrom('outbox')
    .where('status', '=', 'done')
    .where('created_at', '<', olderThan)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('webhook_deliveries').select('webhook_deliveries.id').whereRef('webhook_deliveries.outbox_id', '=', 'outbox.id'))),
    )
    .executeTakeFirst();
  const jobs = await db.deleteFrom('jobs').where('status', 'in', ['done', 'failed']).where('finished_at', '<', olderThan).executeTakeFirst();
  return { deliveries: Number(deliveries.numDeletedRows), events: Number(events.numDeletedRows), jobs: Number(jobs.numDeletedRows) };
}
