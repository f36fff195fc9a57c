import type { MigrationFactory } from './factory.js';

/**
 * What the admin app reads around content: snippets, the actions audit trail, notifications (with who has
 * dismissed each, so several instances agree) and recommendations (Ghost's columns).
 */
export const clientResources: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('snippets')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(191)', (c) => c.notNull().unique())
      .addColumn('mobiledoc', t.longText, (c) => c.notNull())
      .addColumn('lexical', t.longText)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', t.timestamp)
      .addColumn('updated_by', 'varchar(24)')
      .execute();

    await db.schema
      .createTable('actions')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('resource_id', 'varchar(24)')
      .addColumn('resource_type', 'varchar(50)', (c) => c.notNull())
      .addColumn('actor_id', 'varchar(24)', (c) => c.notNull())
      .addColumn('actor_type', 'varchar(50)', (c) => c.notNull())
      .addColumn('event', 'varchar(50)', (c) => c.notNull())
      .addColumn('context', t.longText)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    // The admin app's questions: the latest actions, and the history of one post.
    await db.schema.createIndex('actions_created_at_index').on('actions').column('created_at').execute();
    await db.schema.createIndex('actions_resource_id_index').on('actions').column('resource_id').execute();

    await db.schema
      .createTable('notifications')
      // Ghost lets a client choose a notification's id.
      .addColumn('id', 'varchar(191)', (c) => c.primaryKey())
      .addColumn('data', t.longText, (c) => c.notNull())
      .addColumn('custom', t.boolean, (c) => c.notNull())
      .addColumn('created_at_version', 'varchar(50)', (c) => c.notNull())
      .addColumn('added_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('notifications_seen')
      .addColumn('notification_id', 'varchar(191)', (c) => c.notNull().references('notifications.id').onDelete('cascade'))
      .addColumn('user_id', 'varchar(24)', (c) => c.notNull())
      .addPrimaryKeyConstraint('notifications_seen_pkey', ['notification_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('recommendations')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('url', 'varchar(2000)', (c) => c.notNull())
      .addColumn('title', 'varchar(2000)', (c) => c.notNull())
      .addColumn('excerpt', 'varchar(2000)')
      .addColumn('featured_image', 'varchar(2000)')
      .addColumn('favicon', 'varchar(2000)')
      .addColumn('description', 'varchar(2000)')
      .addColumn('one_click_subscribe', t.boolean, (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp)
      .execute();
  },
  async down(db) {
    for (const table of ['recommendations', 'notifications_seen', 'notifications', 'actions', 'snippets']) {
      await db.schema.dropTable(table).execute();
    }
  },
});
