import type { MigrationFactory } from './factory.js';

/**
 * The response cache's version: bumped in the transaction of every write that changes what the Content API
 * answers (each one that records `site.changed`), so every instance can tell whether an answer it keeps is
 * still current with one primary-key read.
 */
export const contentVersion: MigrationFactory = () => ({
  async up(db) {
    await db.insertInto('cache_versions').values({ name: 'content', version: 0 }).execute();
  },
  async down(db) {
    await db.deleteFrom('cache_versions').where('name', '=', 'content').execute();
  },
});
