import type { MigrationFactory } from './factory.js';

/**
 * Ghost's `custom_theme_settings`: the value of each of a theme's custom settings (its package.json
 * `config.custom`), one row per theme and key, kept across uploads of the same theme as Ghost keeps them.
 * The unique index makes two instances syncing the same theme at once settle on one row per key.
 */
export const customThemeSettings: MigrationFactory = (t) => ({
  async up(db) {
    await db.schema
      .createTable('custom_theme_settings')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('theme', 'varchar(191)', (c) => c.notNull())
      .addColumn('key', 'varchar(191)', (c) => c.notNull())
      .addColumn('type', 'varchar(50)', (c) => c.notNull())
      .addColumn('value', t.longText)
      .execute();
    await db.schema.createIndex('custom_theme_settings_theme_key_unique').on('custom_theme_settings').columns(['theme', 'key']).unique().execute();
  },
  async down(db) {
    await db.schema.dropTable('custom_theme_settings').execute();
  },
});
