import type { Db } from '../db/connect.js';
import { SETTINGS, type SettingKey } from './keys.js';

/**
 * Settings as the rest of the code reads them: every stored setting, loaded in one query and kept per
 * database handle (one per running instance) until a write invalidates it. Values are the stored strings;
 * a key without a row reads as its default.
 *
 * Invalidation reaches this process only. Another instance sharing the database keeps its cache until it
 * invalidates too: cross-instance invalidation arrives with the scale issue.
 */
type Values = ReadonlyMap<string, string | null>;

const caches = new WeakMap<Db, { generation: number; values: Promise<Values> }>();
let generation = 0;

/** Forgets every cached value; the next read loads them again. */
export function invalidateSettings(): void {
  generation += 1;
}

export async function readSettings<K extends SettingKey>(db: Db, keys: readonly K[]): Promise<ReadonlyMap<K, string | null>> {
  const stored = await storedValues(db, keys);
  return new Map(keys.map((key) => [key, stored.has(key) ? stored.get(key)! : SETTINGS[key].default]));
}

export async function readSetting(db: Db, key: SettingKey): Promise<string | null> {
  return (await readSettings(db, [key])).get(key)!;
}

/**
 * Stores values of existing settings and invalidates the cache. Inside a transaction, the caller
 * invalidates again once it committed: a read between the write and the commit caches the old value.
 */
export async function writeSettings(db: Db, values: Partial<Record<SettingKey, string | null>>, updated_at: Date): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await db.updateTable('settings').set({ value, updated_at }).where('key', '=', key).execute();
  }
  invalidateSettings();
}

/** A transaction reads its own view of the table; everything else shares the handle's cache. */
function storedValues(db: Db, keys: readonly SettingKey[]): Promise<Values> {
  if (db.isTransaction) return load(db, keys);
  let cached = caches.get(db);
  if (!cached || cached.generation !== generation) {
    cached = { generation, values: load(db, null) };
    caches.set(db, cached);
    // A failed load is not kept: the next read tries again.
    cached.values.catch(() => caches.delete(db));
  }
  return cached.values;
}

async function load(db: Db, keys: readonly SettingKey[] | null): Promise<Values> {
  let query = db.selectFrom('settings').select(['key', 'value']);
  if (keys) query = query.where('key', 'in', keys);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.key, row.value]));
}
