import { sql } from 'kysely';
import type { Db } from '../db/connect.js';

/**
 * Leases, behind a delivery the runner just claimed as first in line for its webhook, the deliveries that
 * follow it in event order and may go now (due, not leased, not behind an event still waiting in the
 * outbox), up to `limit`, stopping at the first that may not: the runner then sends them one after the
 * other without a claim round between two, which is what held a busy webhook to one delivery per round.
 *
 * No other instance can claim them meanwhile: only a webhook's first pending delivery is ever due
 * (`firstInLine`), and these are leased. Returns their ids in the order to send them.
 */
export async function claimFollowing(db: Db, owner: string, firstId: string, now: Date, leaseMs: number, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const head = await db.selectFrom('webhook_deliveries').select(['webhook_id', 'event_at', 'outbox_id']).where('id', '=', firstId).executeTakeFirst();
  if (!head) return [];
  const next = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_at', 'outbox_id', 'available_at', 'lease_expires_at'])
    .where('webhook_id', '=', head.webhook_id)
    .where('status', '=', 'pending')
    .where('id', '!=', firstId)
    .orderBy('event_at')
    .orderBy('outbox_id')
    .orderBy('id')
    .limit(limit)
    .execute();
  // The oldest event not yet fanned out: a delivery after it would overtake its delivery.
  const waiting = await db
    .selectFrom('outbox')
    .select(['created_at', 'id'])
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  const ms = (value: Date | string) => new Date(value).getTime();
  const ids: string[] = [];
  for (const row of next) {
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
  // Something changed under us (a redelivery, a delete): give back what was taken and go one at a time.
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .execute();
  return [];
}
