import type { MigrationFactory } from './factory.js';

/**
 * Webhooks with Ghost's columns, and one delivery row per webhook and event: the job runner claims due
 * deliveries with a lease as it claims outbox rows, and the rows stay as the delivery history.
 */
export const webhooks: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('event', 'varchar(50)', (c) => c.notNull())
      .addColumn('target_url', 'varchar(2000)', (c) => c.notNull())
      .addColumn('name', 'varchar(191)')
      .addColumn('secret', 'varchar(191)')
      .addColumn('api_version', 'varchar(50)', (c) => c.notNull().defaultTo('v5.130'))
      .addColumn('integration_id', 'varchar(24)', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
      .addColumn('last_triggered_at', t.timestamp)
      .addColumn('last_triggered_status', 'varchar(50)')
      .addColumn('last_triggered_error', 'varchar(50)')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp)
      .execute();
    // Fan-out's question: which webhooks listen to this event.
    await db.schema.createIndex('webhooks_event_index').on('webhooks').column('event').execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('webhook_id', 'varchar(24)', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('outbox_id', 'varchar(24)', (c) => c.notNull())
      .addColumn('event', 'varchar(50)', (c) => c.notNull())
      // With outbox_id, the delivery's place in its webhook's order (when the event was recorded).
      .addColumn('event_at', t.timestamp, (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('available_at', t.timestamp, (c) => c.notNull())
      .addColumn('lease_owner', 'varchar(64)')
      .addColumn('lease_expires_at', t.timestamp)
      .addColumn('response_status', 'integer')
      .addColumn('error', 'varchar(191)')
      .addColumn('latency_ms', 'integer')
      .addColumn('response_excerpt', 'varchar(500)')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addColumn('delivered_at', t.timestamp)
      .execute();
    await db.schema.createIndex('webhook_deliveries_status_available_at_index').on('webhook_deliveries').columns(['status', 'available_at']).execute();
    // The order check's question (is an earlier delivery of this webhook still pending?) without reading the
    // webhook's whole history, and the history's own (a webhook's latest deliveries).
    await db.schema
      .createIndex('webhook_deliveries_webhook_id_status_event_at_index')
      .on('webhook_deliveries')
      .columns(['webhook_id', 'status', 'event_at'])
      .execute();
    await db.schema.createIndex('webhook_deliveries_webhook_id_created_at_index').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();
  },
  async down(db) {
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('webhooks').execute();
  },
});
