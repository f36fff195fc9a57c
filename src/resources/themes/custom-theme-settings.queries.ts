import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { CustomThemeSettingRow } from '../../db/schema-theme-settings.js';

const COLUMNS = ['id', 'theme', 'key', 'type', 'value'] as const;

/** Every stored custom setting of one theme. */
export function customSettingsOfTheme(db: ReadDb, theme: string): Promise<CustomThemeSettingRow[]> {
  return db.selectFrom('custom_theme_settings').select(COLUMNS).where('theme', '=', theme).execute();
}

export async function insertCustomSetting(db: Db, row: CustomThemeSettingRow): Promise<void> {
  await db.insertInto('custom_theme_settings').values(row).execute();
}

export async function deleteCustomSettings(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('custom_theme_settings').where('id', 'in', ids).execute();
}

export async function setCustomSettingValue(db: Db, id: string, value: string | null): Promise<void> {
  await db.updateTable('custom_theme_settings').set({ value }).where('id', '=', id).execute();
}

export function findCustomSetting(db: ReadDb, theme: string, key: string): Promise<CustomThemeSettingRow | undefined> {
  return db.selectFrom('custom_theme_settings').select(COLUMNS).where('theme', '=', theme).where('key', '=', key).executeTakeFirst();
}
