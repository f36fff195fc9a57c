import type { MigrationFactory } from './factory.js';

/**
 * What the Members API keeps for sign-in, with Ghost 5.130.6's tables and columns so an imported Ghost
 * database maps one to one: the magic links' single-use token records (`tokens`), each sign-in
 * (`members_login_events`) and post feedback (`members_feedback`). In the database, not in memory, so a link
 * mailed by one instance signs in on any other.
 */
export const membersApi: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('tokens')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('token', 'varchar(32)', (c) => c.notNull())
      .addColumn('data', 'varchar(2000)')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', t.timestamp)
      .addColumn('updated_by', 'varchar(24)')
      .addColumn('first_used_at', t.timestamp)
      .addColumn('used_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('tokens_token_index').on('tokens').column('token').unique().execute();

    await db.schema
      .createTable('members_login_events')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(24)', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('members_login_events_member_id_index').on('members_login_events').column('member_id').execute();

    await db.schema
      .createTable('members_feedback')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('score', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('member_id', 'varchar(24)', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('post_id', 'varchar(24)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp)
      .execute();
  },
  async down(db) {
    for (const table of ['members_feedback', 'members_login_events', 'tokens']) await db.schema.dropTable(table).execute();
  },
});
