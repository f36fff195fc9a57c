import type { MigrationFactory } from './factory.js';

/**
 * The outbox: events recorded by a write, inserted in the write's own transaction so a rolled-back write
 * announces nothing and a committed one is never lost. The job runner claims due rows with a lease.
 */
export const outbox: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('outbox')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('event', 'varchar(50)', (c) => c.notNull())
      .addColumn('resource_type', 'varchar(50)')
      .addColumn('resource_id', 'varchar(24)')
      .addColumn('payload', t.longText, (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('available_at', t.timestamp, (c) => c.notNull())
      .addColumn('lease_owner', 'varchar(64)')
      .addColumn('lease_expires_at', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    // The runner's question: which pending rows are due, oldest first.
    await db.schema.createIndex('outbox_status_available_at_index').on('outbox').columns(['status', 'available_at']).execute();
  },
  async down(db) {
    await db.schema.dropTable('outbox').execute();
  },
});
