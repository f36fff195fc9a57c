import type { MigrationFactory } from './factory.js';

/**
 * `reading_time` worked out when a post is saved, next to the html it is derived from: Content API browse
 * would otherwise count the words of every post on every read. Null for rows written before (computed on read).
 */
export const postsReadingTime: MigrationFactory = () => ({
  async up(db) {
    await db.schema.alterTable('posts').addColumn('reading_time', 'integer').execute();
  },
  async down(db) {
    await db.schema.alterTable('posts').dropColumn('reading_time').execute();
  },
});
