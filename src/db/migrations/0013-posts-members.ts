import type { MigrationFactory } from './factory.js';

/**
 * Posts meet members: the tiers a `visibility: tiers` post is for (Ghost's `posts_products`) and the
 * newsletter send record of a post (`emails`), both with Ghost 5.130.6's columns so an imported Ghost
 * database maps one to one. A post has at most one email (`post_id` unique, as in Ghost); the email row
 * outlives its post, as Ghost keeps it for the analytics of a deleted post.
 */
export const postsMembers: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('posts_products')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('post_id', 'varchar(24)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('product_id', 'varchar(24)', (c) => c.notNull().references('products.id').onDelete('cascade'))
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('posts_products_post_id_index').on('posts_products').column('post_id').execute();

    await db.schema
      .createTable('emails')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('post_id', 'varchar(24)', (c) => c.notNull().unique())
      .addColumn('uuid', 'varchar(36)', (c) => c.notNull())
      .addColumn('status', 'varchar(50)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('recipient_filter', t.longText, (c) => c.notNull())
      .addColumn('error', 'varchar(2000)')
      .addColumn('error_data', t.longText)
      .addColumn('email_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('delivered_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('opened_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('subject', 'varchar(300)')
      .addColumn('from', 'varchar(2000)')
      .addColumn('reply_to', 'varchar(2000)')
      .addColumn('html', t.longText)
      .addColumn('plaintext', t.longText)
      .addColumn('source', t.longText)
      .addColumn('source_type', 'varchar(50)', (c) => c.notNull().defaultTo('html'))
      .addColumn('track_opens', t.boolean, (c) => c.notNull().defaultTo(false))
      .addColumn('track_clicks', t.boolean, (c) => c.notNull().defaultTo(false))
      .addColumn('feedback_enabled', t.boolean, (c) => c.notNull().defaultTo(false))
      .addColumn('submitted_at', t.timestamp, (c) => c.notNull())
      .addColumn('newsletter_id', 'varchar(24)', (c) => c.references('newsletters.id'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', t.timestamp)
      .addColumn('updated_by', 'varchar(24)')
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('emails').execute();
    await db.schema.dropTable('posts_products').execute();
  },
});
