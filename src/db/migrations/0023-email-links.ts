import type { MigrationFactory } from './factory.js';

/**
 * Ghost's click tracking of newsletter links: `redirects` (one row per link of a sent email, `/r/<slug>` → the
 * original URL) and `members_click_events` (one row per member's visit through one).
 */
export const emailLinks: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('redirects')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('from', 'varchar(191)', (c) => c.notNull())
      .addColumn('to', 'varchar(2000)', (c) => c.notNull())
      .addColumn('post_id', 'varchar(24)', (c) => c.references('posts.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp)
      .execute();
    await db.schema.createIndex('redirects_from_index').on('redirects').column('from').execute();
    await db.schema.createIndex('redirects_post_id_index').on('redirects').column('post_id').execute();
    await db.schema
      .createTable('members_click_events')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(24)', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('redirect_id', 'varchar(24)', (c) => c.notNull().references('redirects.id').onDelete('cascade'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('members_click_events_redirect_id_index').on('members_click_events').column('redirect_id').execute();
  },
  async down(db) {
    await db.schema.dropTable('members_click_events').execute();
    await db.schema.dropTable('redirects').execute();
  },
});
