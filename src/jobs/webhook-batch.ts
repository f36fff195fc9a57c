import { sql } from 'kysely';
import type { Db } from '../db/connect.js';

/**
 * Each webhook's first pending delivery in event order (delivery id → webhook id): the only one of its deliveries that may be claimed
 * (`firstInLine`). One index seek per webhook, where asking the deliveries which of them is first in line
 * reads every pending one, and a backlog made every claim round slower than the last.
 */
export async function webhookHeads(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('webhooks as w')
    .select('w.id')
    .select((eb) =>
      eb
        .selectFrom('webhook_deliveries as d')
        .select('d.id')
        .whereRef('d.webhook_id', '=', 'w.id')
        .where('d.status', '=', 'pending')
        .orderBy('d.event_at')
        .orderBy('d.outbox_id')
        .orderBy('d.id')
        .limit(1)
        .as('head'),
    )
    .execute();
  // By delivery: the webhook it is the head of.
  return new Map(rows.flatMap((row) => (row.head ? [[row.head, row.id] as const] : [])));
}

/**
 * Leases the deliveries of one webhook that come next in event order and may go now (due, not leased, not
 * behind an event still waiting in the outbox), up to `limit`, stopping at the first that may not. `sending`
 * are the webhook's deliveries this instance already holds (sent, their answers not yet recorded): passed over.
 * The runner sends them one after the other without a claim round between two.
 *
 * No other instance can claim them meanwhile: only a webhook's first pending delivery is ever due
 * (`firstInLine`), and these are leased. Returns their ids in the order to send them.
 */
export async function claimInLine(
  db: Db,
  owner: string,
  webhookId: string,
  sending: ReadonlySet<string>,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<string[]> {
  // The oldest event not yet fanned out: a delivery after it would overtake its delivery. Read before the
  // deliveries: an event fanned out in between then has its deliveries in the second read (fan-out inserts them
  // in the transaction that marks the event done). The other order could miss both the event and its deliveries,
  // and send a later delivery first.
  const waiting = await db
    .selectFrom('outbox')
    .select(['created_at', 'id'])
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  const next = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_at', 'outbox_id', 'available_at', 'lease_expires_at'])
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .orderBy('event_at')
    .orderBy('outbox_id')
    .orderBy('id')
    .limit(limit + sending.size)
    .execute();
  const ms = (value: Date | string) => new Date(value).getTime();
  const ids: string[] = [];
  for (const row of next) {
    if (sending.has(row.id)) continue;
    if (ms(row.available_at) > now.getTime()) break;
    if (row.lease_expires_at !== null && ms(row.lease_expires_at) >= now.getTime()) break;
    if (waiting) {
      const [at, outboxAt] = [ms(row.event_at), ms(waiting.created_at)];
      if (at > outboxAt || (at === outboxAt && row.outbox_id > waiting.id)) break;
    }
    ids.push(row.id);
  }
  if (ids.length === 0) return [];
  const leased = await db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: owner, lease_expires_at: new Date(now.getTime() + leaseMs) })
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .where(sql<boolean>`(lease_expires_at is null or lease_expires_at < ${now})`)
    .executeTakeFirst();
  if (Number(leased.numUpdatedRows) === ids.length) return ids;
  // Something changed under us (a redelivery, a delete, another instance): give back what was taken.
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .execute();
  return [];
}
