import type { Db } from '../../db/connect.js';

/** Values of several settings by key; absent keys are missing from the map. */
export async function readSettings(db: Db, keys: readonly string[]): Promise<Map<string, string | null>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('key', 'in', keys).execute();
  return new Map(rows.map((row) => [row.key, row.value]));
}

export async function readSetting(db: Db, key: string): Promise<string | null> {
  return (await readSettings(db, [key])).get(key) ?? null;
}

export async function writeSettings(db: Db, values: Record<string, string | null>, updated_at: Date): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await db.updateTable('settings').set({ value, updated_at }).where('key', '=', key).execute();
  }
}
