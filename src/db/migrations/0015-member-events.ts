import type { MigrationFactory } from './factory.js';

/**
 * What happened to members, as Ghost records it for the activity feed (`GET /members/events/`) and its
 * member statistics: sign-ups, newsletter subscriptions and unsubscriptions, status changes and e-mail
 * changes. Tables and columns are Ghost 5.130.6's, so an imported Ghost database maps one to one.
 */
export const memberEvents: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('members_created_events')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('member_id', 'varchar(24)', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('attribution_id', 'varchar(24)')
      .addColumn('attribution_type', 'varchar(50)')
      .addColumn('attribution_url', 'varchar(2000)')
      .addColumn('referrer_source', 'varchar(191)')
      .addColumn('referrer_medium', 'varchar(191)')
      .addColumn('referrer_url', 'varchar(2000)')
      .addColumn('source', 'varchar(50)', (c) => c.notNull())
      .addColumn('batch_id', 'varchar(24)')
      .execute();
    await db.schema.createIndex('members_created_events_attribution_id_index').on('members_created_events').column('attribution_id').execute();

    await db.schema
      .createTable('members_subscribe_events')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(24)', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('subscribed', t.boolean, (c) => c.notNull().defaultTo(true))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('source', 'varchar(50)')
      .addColumn('newsletter_id', 'varchar(24)', (c) => c.references('newsletters.id'))
      .execute();
    await db.schema
      .createIndex('members_subscribe_events_newsletter_id_created_at_index')
      .on('members_subscribe_events')
      .columns(['newsletter_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('members_status_events')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(24)', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('from_status', 'varchar(50)')
      .addColumn('to_status', 'varchar(50)')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('members_email_change_events')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(24)', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('to_email', 'varchar(191)', (c) => c.notNull())
      .addColumn('from_email', 'varchar(191)', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
  },
  async down(db) {
    for (const table of ['members_email_change_events', 'members_status_events', 'members_subscribe_events', 'members_created_events']) {
      await db.schema.dropTable(table).execute();
    }
  },
});
