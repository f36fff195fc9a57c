import type { Kysely } from 'kysely';
import type { MigrationFactory } from './factory.js';

/**
 * A webhook's pending deliveries in its full delivery order (event_at, outbox_id, id) straight from the index:
 * finding each webhook's first one in line, and the ones after it, then reads a few index entries instead of
 * sorting every pending delivery of the webhook. Replaces the index on (webhook_id, status, event_at), which it
 * starts with.
 */
export const webhookDeliveryOrder: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createIndex('webhook_deliveries_webhook_id_status_order_index')
      .on('webhook_deliveries')
      .columns(['webhook_id', 'status', 'event_at', 'outbox_id', 'id'])
      .execute();
    await dropIndex(db, 'webhook_deliveries_webhook_id_status_event_at_index', t.fullText === 'innodb');
  },
  async down(db) {
    await db.schema
      .createIndex('webhook_deliveries_webhook_id_status_event_at_index')
      .on('webhook_deliveries')
      .columns(['webhook_id', 'status', 'event_at'])
      .execute();
    await dropIndex(db, 'webhook_deliveries_webhook_id_status_order_index', t.fullText === 'innodb');
  },
});

/** MySQL names an index within its table (`DROP INDEX … ON`); the others within the schema. */
async function dropIndex(db: Kysely<unknown>, name: string, mysql: boolean): Promise<void> {
  const drop = db.schema.dropIndex(name);
  await (mysql ? drop.on('webhook_deliveries') : drop).execute();
}
