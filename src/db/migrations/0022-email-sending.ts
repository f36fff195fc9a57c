import type { MigrationFactory } from './factory.js';

/**
 * Newsletter delivery: Ghost 5.130.6's `email_batches`, `email_recipients` and `email_recipient_failures`,
 * with its columns and indexes so an imported Ghost database maps one to one. A recipient row per member is
 * what makes a send resumable: a batch taken over after a crash sends only the rows not yet processed.
 */
export const emailSending: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('email_batches')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('email_id', 'varchar(24)', (c) => c.notNull().references('emails.id'))
      .addColumn('provider_id', 'varchar(255)')
      .addColumn('status', 'varchar(50)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('member_segment', 'text')
      .addColumn('error_status_code', 'integer')
      .addColumn('error_message', 'varchar(2000)')
      .addColumn('error_data', t.longText)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('email_batches_email_id_index').on('email_batches').column('email_id').execute();

    await db.schema
      .createTable('email_recipients')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('email_id', 'varchar(24)', (c) => c.notNull().references('emails.id'))
      .addColumn('member_id', 'varchar(24)', (c) => c.notNull())
      .addColumn('batch_id', 'varchar(24)', (c) => c.notNull().references('email_batches.id'))
      .addColumn('processed_at', t.timestamp)
      .addColumn('delivered_at', t.timestamp)
      .addColumn('opened_at', t.timestamp)
      .addColumn('failed_at', t.timestamp)
      .addColumn('member_uuid', 'varchar(36)', (c) => c.notNull())
      .addColumn('member_email', 'varchar(191)', (c) => c.notNull())
      .addColumn('member_name', 'varchar(191)')
      .execute();
    await db.schema.createIndex('email_recipients_member_id_index').on('email_recipients').column('member_id').execute();
    // A batch's job reads its unprocessed rows.
    await db.schema.createIndex('email_recipients_batch_id_processed_at_index').on('email_recipients').columns(['batch_id', 'processed_at']).execute();
    for (const column of ['member_email', 'delivered_at', 'opened_at', 'failed_at']) {
      await db.schema.createIndex(`email_recipients_email_id_${column}_index`).on('email_recipients').columns(['email_id', column]).execute();
    }

    await db.schema
      .createTable('email_recipient_failures')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('email_id', 'varchar(24)', (c) => c.notNull().references('emails.id'))
      .addColumn('member_id', 'varchar(24)')
      .addColumn('email_recipient_id', 'varchar(24)', (c) => c.notNull().references('email_recipients.id'))
      .addColumn('code', 'integer', (c) => c.notNull())
      .addColumn('enhanced_code', 'varchar(50)')
      .addColumn('message', 'varchar(2000)', (c) => c.notNull())
      .addColumn('severity', 'varchar(50)', (c) => c.notNull().defaultTo('permanent'))
      .addColumn('failed_at', t.timestamp, (c) => c.notNull())
      .addColumn('event_id', 'varchar(255)')
      .execute();
    await db.schema.createIndex('email_recipient_failures_email_id_index').on('email_recipient_failures').column('email_id').execute();
  },
  async down(db) {
    await db.schema.dropTable('email_recipient_failures').execute();
    await db.schema.dropTable('email_recipients').execute();
    await db.schema.dropTable('email_batches').execute();
  },
});
