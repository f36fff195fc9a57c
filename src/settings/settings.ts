import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import type { ReadDb } from '../db/read-db.js';
import { SETTINGS, SETTING_KEYS, type SettingKey } from './keys.js';

/**
 * Settings as the rest of the code reads them: every stored setting, loaded in one query and kept per
 * database handle (one per running instance). Values are the stored strings; a key without a row reads as
 * its default.
 *
 * A write in this process invalidates the cache at once. A write by another instance bumps the `settings`
 * row of `cache_versions` in its transaction; each instance compares that version with its own at most
 * once every RECHECK_MS, so another instance's change is seen within that bound.
 */
export const RECHECK_MS = 1000;

type Values = ReadonlyMap<string, string | null>;
interface Loaded {
  version: number;
  values: Values;
}
interface Entry {
  generation: number;
  checkedAt: number;
  loaded: Promise<Loaded>;
}

const caches = new WeakMap<ReadDb, Entry>();
let generation = 0;

/** Forgets every cached value of this process; the next read loads them again. */
export function invalidateSettings(): void {
  generation += 1;
}

export async function readSettings<K extends SettingKey>(db: ReadDb, keys: readonly K[]): Promise<ReadonlyMap<K, string | null>> {
  const stored = await storedValues(db, keys);
  return new Map(keys.map((key) => [key, stored.has(key) ? stored.get(key)! : SETTINGS[key].default]));
}

const allSettings = new WeakMap<Values, ReadonlyMap<SettingKey, string | null>>();

/**
 * Every setting, in Ghost's order: the same object while the cached values are unchanged, so what is derived
 * from all of them (the Content API's settings answer) can be kept per snapshot.
 */
export async function readAllSettings(db: ReadDb): Promise<ReadonlyMap<SettingKey, string | null>> {
  const stored = await storedValues(db, SETTING_KEYS);
  let all = allSettings.get(stored);
  if (!all) {
    all = new Map(SETTING_KEYS.map((key) => [key, stored.has(key) ? stored.get(key)! : SETTINGS[key].default]));
    allSettings.set(stored, all);
  }
  return all;
}

export async function readSetting(db: ReadDb, key: SettingKey): Promise<string | null> {
  return (await readSettings(db, [key])).get(key)!;
}

/**
 * Stores values of existing settings, tells other instances (the version bump commits with the values)
 * and invalidates this process's cache. Inside a transaction, the caller invalidates again once it
 * committed: a read between the write and the commit caches the old value.
 */
export async function writeSettings(db: Db, values: Partial<Record<SettingKey, string | null>>, updated_at: Date): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await db.updateTable('settings').set({ value, updated_at }).where('key', '=', key).execute();
  }
  await db
    .updateTable('cache_versions')
    .set({ version: sql`version + 1` })
    .where('name', '=', 'settings')
    .execute();
  invalidateSettings();
}

/** A transaction reads its own view of the table; everything else shares the handle's cache. */
async function storedValues(db: ReadDb, keys: readonly SettingKey[]): Promise<Values> {
  if (db.isTransaction) return load(db, keys);
  const at = performance.now();
  let entry = caches.get(db);
  if (entry && entry.generation === generation && at - entry.checkedAt < RECHECK_MS) return (await entry.loaded).values;
  const known = entry?.generation === generation ? entry.loaded : null;
  entry = { generation, checkedAt: at, loaded: known ? recheck(db, known) : loadVersioned(db) };
  caches.set(db, entry);
  const current = entry;
  // A failed load is not kept: the next read tries again.
  current.loaded.catch(() => {
    if (caches.get(db) === current) caches.delete(db);
  });
  return (await current.loaded).values;
}

/** Keeps what is loaded while the version is unchanged (one primary-key read), else loads again. */
async function recheck(db: ReadDb, known: Promise<Loaded>): Promise<Loaded> {
  const [previous, version] = await Promise.all([known, versionOf(db)]);
  return version === previous.version ? previous : loadVersioned(db);
}

/** The version is read before the values: a write in between makes the next check load again. */
async function loadVersioned(db: ReadDb): Promise<Loaded> {
  const version = await versionOf(db);
  return { version, values: await load(db, null) };
}

async function versionOf(db: ReadDb): Promise<number> {
  const row = await db.selectFrom('cache_versions').select('version').where('name', '=', 'settings').executeTakeFirst();
  return Number(row?.version ?? 0);
}

async function load(db: ReadDb, keys: readonly SettingKey[] | null): Promise<Values> {
  let query = db.selectFrom('settings').select(['key', 'value']);
  if (keys) query = query.where('key', 'in', keys);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.key, row.value]));
}
