import type { MigrationFactory } from './factory.js';

/**
 * One version number per cache that several instances keep (settings first; the response cache later).
 * A write bumps the version in its own transaction; every instance compares it with the version its
 * cache was loaded at, so a change made by one instance reaches the others without a message bus.
 */
export const cacheVersions: MigrationFactory = () => ({
  async up(db) {
    await db.schema
      .createTable('cache_versions')
      .addColumn('name', 'varchar(50)', (c) => c.primaryKey())
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.insertInto('cache_versions').values({ name: 'settings', version: 0 }).execute();
  },
  async down(db) {
    await db.schema.dropTable('cache_versions').execute();
  },
});
