import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect, type Connection } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../test/support.js';
import { RECHECK_MS, readSetting, writeSettings } from './settings.js';

// `other` writes as another instance would: straight to the database, so this process's own invalidation
// (which another instance's write never reaches) plays no part.
let database: TestDatabase;
let instance: Connection;
let other: Connection;
beforeAll(async () => {
  database = await createTestDatabase();
  instance = connect(database.url, { poolSize: 2 });
  other = connect(database.url, { poolSize: 2 });
  await migrateToLatest(instance);
});
afterAll(async () => {
  await instance.close();
  await other.close();
  await database.drop();
});

const setTitle = (title: string) => other.db.updateTable('settings').set({ value: title }).where('key', '=', 'title').execute();
const bumpVersion = () =>
  other.db
    .updateTable('cache_versions')
    .set({ version: sql`version + 1` })
    .where('name', '=', 'settings')
    .execute();

async function titleAfter(ms: number): Promise<string | null> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return readSetting(instance.db, 'title');
}

it('sees a write of its own at once', async () => {
  expect(await readSetting(instance.db, 'title')).toBe('Ghost');
  await writeSettings(instance.db, { title: 'Mine' }, new Date());
  expect(await readSetting(instance.db, 'title')).toBe('Mine');
});

it('keeps its cache while the version is unchanged, and loads again within the recheck bound once it moves', async () => {
  expect(await readSetting(instance.db, 'title')).toBe('Mine');
  await setTitle('Unannounced');
  expect(await titleAfter(RECHECK_MS + 100)).toBe('Mine');

  await setTitle('Announced');
  await bumpVersion();
  expect(await titleAfter(RECHECK_MS + 100)).toBe('Announced');
});
