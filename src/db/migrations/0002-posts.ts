import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../engine.js';
import type { MigrationFactory } from './factory.js';

/** Posts and pages (one table, `type`), their SEO/meta row, tags, authorship and revisions (Ghost's schema). */
export const posts: MigrationFactory = (t) => ({
  async up(db) {
    await createTags(db, t);
    await createPosts(db, t);
    await createRelations(db, t);
  },
  async down(db) {
    for (const table of ['post_revisions', 'posts_authors', 'posts_tags', 'posts_meta', 'posts', 'tags']) {
      await db.schema.dropTable(table).execute();
    }
  },
});

async function createTags(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('tags')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(191)', (c) => c.notNull())
    .addColumn('slug', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('description', t.text)
    .addColumn('feature_image', 'varchar(2000)')
    .addColumn('parent_id', 'varchar(24)')
    .addColumn('visibility', 'varchar(50)', (c) => c.notNull().defaultTo('public'))
    .addColumn('og_image', 'varchar(2000)')
    .addColumn('og_title', 'varchar(300)')
    .addColumn('og_description', 'varchar(500)')
    .addColumn('twitter_image', 'varchar(2000)')
    .addColumn('twitter_title', 'varchar(300)')
    .addColumn('twitter_description', 'varchar(500)')
    .addColumn('meta_title', 'varchar(2000)')
    .addColumn('meta_description', 'varchar(2000)')
    .addColumn('codeinjection_head', t.text)
    .addColumn('codeinjection_foot', t.text)
    .addColumn('canonical_url', 'varchar(2000)')
    .addColumn('accent_color', 'varchar(50)')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .addColumn('updated_by', 'varchar(24)')
    .execute();
}

async function createPosts(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('posts')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull())
    .addColumn('title', 'varchar(2000)', (c) => c.notNull())
    .addColumn('slug', 'varchar(191)', (c) => c.notNull())
    .addColumn('mobiledoc', t.longText)
    .addColumn('lexical', t.longText)
    .addColumn('html', t.longText)
    .addColumn('comment_id', 'varchar(50)')
    .addColumn('plaintext', t.longText)
    .addColumn('feature_image', 'varchar(2000)')
    .addColumn('featured', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('type', 'varchar(50)', (c) => c.notNull().defaultTo('post'))
    .addColumn('status', 'varchar(50)', (c) => c.notNull().defaultTo('draft'))
    .addColumn('locale', 'varchar(6)')
    .addColumn('visibility', 'varchar(50)', (c) => c.notNull().defaultTo('public'))
    .addColumn('email_recipient_filter', t.text, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp)
    .addColumn('updated_by', 'varchar(24)')
    .addColumn('published_at', t.timestamp)
    .addColumn('published_by', 'varchar(24)')
    .addColumn('custom_excerpt', 'varchar(2000)')
    .addColumn('codeinjection_head', t.text)
    .addColumn('codeinjection_foot', t.text)
    .addColumn('custom_template', 'varchar(100)')
    .addColumn('canonical_url', t.text)
    .addColumn('newsletter_id', 'varchar(24)')
    .addColumn('show_title_and_feature_image', t.boolean, (c) => c.notNull().defaultTo(true))
    .addUniqueConstraint('posts_slug_type_unique', ['slug', 'type'])
    .execute();
  await db.schema.createIndex('posts_type_status_updated_at_index').on('posts').columns(['type', 'status', 'updated_at']).execute();
  await db.schema.createIndex('posts_type_status_published_at_index').on('posts').columns(['type', 'status', 'published_at']).execute();
  await db.schema.createIndex('posts_uuid_index').on('posts').column('uuid').execute();

  await db.schema
    .createTable('posts_meta')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('post_id', 'varchar(24)', (c) => c.notNull().unique().references('posts.id').onDelete('cascade'))
    .addColumn('og_image', 'varchar(2000)')
    .addColumn('og_title', 'varchar(300)')
    .addColumn('og_description', 'varchar(500)')
    .addColumn('twitter_image', 'varchar(2000)')
    .addColumn('twitter_title', 'varchar(300)')
    .addColumn('twitter_description', 'varchar(500)')
    .addColumn('meta_title', 'varchar(2000)')
    .addColumn('meta_description', 'varchar(2000)')
    .addColumn('email_subject', 'varchar(300)')
    .addColumn('frontmatter', t.text)
    .addColumn('feature_image_alt', 'varchar(191)')
    .addColumn('feature_image_caption', t.text)
    .addColumn('email_only', t.boolean, (c) => c.notNull().defaultTo(false))
    .execute();
}

async function createRelations(db: Kysely<any>, t: ColumnTypes) {
  await db.schema
    .createTable('posts_tags')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('post_id', 'varchar(24)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('tag_id', 'varchar(24)', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('posts_tags_post_id_tag_id_index').on('posts_tags').columns(['post_id', 'tag_id']).execute();
  await db.schema.createIndex('posts_tags_tag_id_index').on('posts_tags').column('tag_id').execute();

  await db.schema
    .createTable('posts_authors')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('post_id', 'varchar(24)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('author_id', 'varchar(24)', (c) => c.notNull().references('users.id'))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('posts_authors_post_id_index').on('posts_authors').column('post_id').execute();
  await db.schema.createIndex('posts_authors_author_id_index').on('posts_authors').column('author_id').execute();

  await db.schema
    .createTable('post_revisions')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('post_id', 'varchar(24)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('lexical', t.longText)
    .addColumn('created_at_ts', 'bigint', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('author_id', 'varchar(24)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'varchar(2000)')
    .addColumn('post_status', 'varchar(50)')
    .addColumn('reason', 'varchar(50)')
    .addColumn('feature_image', 'varchar(2000)')
    .addColumn('feature_image_alt', 'varchar(191)')
    .addColumn('feature_image_caption', t.text)
    .addColumn('custom_excerpt', 'varchar(2000)')
    .execute();
  await db.schema.createIndex('post_revisions_post_id_index').on('post_revisions').column('post_id').execute();
}
