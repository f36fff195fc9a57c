import type { MigrationFactory } from './factory.js';

/**
 * A new site's active theme is the built-in `quire` theme (Quire ships neither of Ghost's default themes):
 * `active_theme` still holding Ghost's default `source` from migration 0007 moves to it. The name is a frozen
 * copy, not an import of application code. A site that activated another theme keeps it.
 */
export const defaultTheme: MigrationFactory = () => ({
  async up(db) {
    await db.updateTable('settings').set({ value: 'quire' }).where('key', '=', 'active_theme').where('value', '=', 'source').execute();
  },
  async down(db) {
    await db.updateTable('settings').set({ value: 'source' }).where('key', '=', 'active_theme').where('value', '=', 'quire').execute();
  },
});
