import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Engine } from '../db/engine.js';
import { objectId } from '../db/ids.js';
import type { WebhookDeliveryRow } from '../db/schema.js';

/**
 * Turns one claimed outbox row into one pending delivery per webhook listening to its event, in one
 * transaction that also marks the row done, only while `owner` still holds its lease: an instance whose
 * lease ran out cannot fan the same event out a second time. Returns how many deliveries it made.
 */
export async function fanOut(db: Db, engine: Engine, owner: string, outboxId: string, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('outbox')
      .set({ status: 'done', lease_owner: null, lease_expires_at: null })
      .where('id', '=', outboxId)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return 0;
    const row = await trx.selectFrom('outbox').select(['event', 'created_at']).where('id', '=', outboxId).executeTakeFirstOrThrow();
    // Event names are stored lower-case and matched exactly, as Ghost's database match does.
    const hooks = await trx
      .selectFrom('webhooks')
      .select('id')
      .where(engine.text.binary(sql.ref('event')), '=', row.event)
      .orderBy('id')
      .execute();
    if (hooks.length === 0) return 0;
    await trx
      .insertInto('webhook_deliveries')
      .values(hooks.map((hook) => pendingDelivery(hook.id, { id: outboxId, ...row }, now)))
      .execute();
    return hooks.length;
  });
}

/**
 * `fanOut` for all the rows one claim took, in one transaction: one statement of each kind instead of one
 * transaction per event, which is what kept fan-out behind at a hundred events a second. All or nothing:
 * when a row's lease was lost meanwhile, or an insert fails (a webhook deleted meanwhile), it throws and
 * the caller fans the rows out one by one.
 */
export async function fanOutAll(db: Db, engine: Engine, owner: string, outboxIds: readonly string[], now: Date): Promise<void> {
  if (outboxIds.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('outbox')
      .set({ status: 'done', lease_owner: null, lease_expires_at: null })
      .where('id', 'in', outboxIds)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== outboxIds.length) throw new Error('an outbox lease was lost during fan-out');
    const rows = await trx.selectFrom('outbox').select(['id', 'event', 'created_at']).where('id', 'in', outboxIds).execute();
    const names = [...new Set(rows.map((row) => row.event))];
    const hooks = await trx
      .selectFrom('webhooks')
      .select(['id', 'event'])
      .where(engine.text.binary(sql.ref('event')), 'in', names)
      .orderBy('id')
      .execute();
    const deliveries = rows.flatMap((row) =>
      // Matched exactly (case-sensitive), as Ghost's database match does.
      hooks.filter((hook) => hook.event === row.event).map((hook) => pendingDelivery(hook.id, row, now)),
    );
    if (deliveries.length > 0) await trx.insertInto('webhook_deliveries').values(deliveries).execute();
  });
}

/**
 * A delivery of an outbox event to one webhook, waiting for its first attempt (the fan-out's, and a
 * redelivery's, which queues the event again as of now).
 */
export function pendingDelivery(webhookId: string, outbox: { id: string; event: string; created_at: Date }, now: Date): WebhookDeliveryRow {
  return {
    id: objectId(),
    webhook_id: webhookId,
    outbox_id: outbox.id,
    event: outbox.event,
    event_at: outbox.created_at,
    status: 'pending',
    attempts: 0,
    available_at: now,
    lease_owner: null,
    lease_expires_at: null,
    response_status: null,
    error: null,
    latency_ms: null,
    response_excerpt: null,
    created_at: now,
    updated_at: now,
    delivered_at: null,
  };
}

/**
 * The condition that keeps each webhook's deliveries in event order: a delivery is due only when no earlier
 * delivery of its webhook is still pending (being tried, or waiting for its retry) and no earlier event
 * still waits in the outbox to be fanned out.
 */
export const firstInLine = sql<SqlBool>`not exists (
  select 1 from webhook_deliveries earlier
  where earlier.webhook_id = webhook_deliveries.webhook_id and earlier.status = 'pending'
    and (earlier.event_at < webhook_deliveries.event_at
      or (earlier.event_at = webhook_deliveries.event_at and earlier.outbox_id < webhook_deliveries.outbox_id)
      or (earlier.event_at = webhook_deliveries.event_at and earlier.outbox_id = webhook_deliveries.outbox_id and earlier.id < webhook_deliveries.id))
) and not exists (
  select 1 from outbox waiting
  where waiting.status = 'pending'
    and (waiting.created_at < webhook_deliveries.event_at
      or (waiting.created_at = webhook_deliveries.event_at and waiting.id < webhook_deliveries.outbox_id))
)`;
