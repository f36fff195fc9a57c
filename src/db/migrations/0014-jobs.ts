import type { MigrationFactory } from './factory.js';

/**
 * Background jobs of any kind (a large members CSV import first), run by the job runner with a lease like
 * the outbox, so several instances share them and a crashed instance's job is taken over.
 */
export const jobs: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('kind', 'varchar(50)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('payload', t.longText, (c) => c.notNull())
      .addColumn('progress', t.longText)
      .addColumn('result', t.longText)
      .addColumn('error', 'varchar(2000)')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('available_at', t.timestamp, (c) => c.notNull())
      .addColumn('lease_owner', 'varchar(64)')
      .addColumn('lease_expires_at', t.timestamp)
      .addColumn('created_by', 'varchar(24)')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addColumn('finished_at', t.timestamp)
      .execute();
    // The runner's question: which pending jobs are due, oldest first.
    await db.schema.createIndex('jobs_status_available_at_index').on('jobs').columns(['status', 'available_at']).execute();
  },
  async down(db) {
    await db.schema.dropTable('jobs').execute();
  },
});
