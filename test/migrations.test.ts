import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect, type Connection } from '../src/db/connect.js';
import { migrateDownAll, migrateToLatest } from '../src/db/migrate.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';
import { createTestDatabase, type TestDatabase } from './support.js';

let database: TestDatabase;
let connection: Connection;
beforeAll(async () => {
  database = await createTestDatabase();
  connection = connect(database.url, { poolSize: 1 });
});
afterAll(async () => {
  await connection.close();
  await database.drop();
});

async function tableNames(): Promise<string[]> {
  const tables = await connection.db.introspection.getTables();
  return tables
    .map((table) => table.name)
    .filter((name) => !name.startsWith('quire_migrations'))
    .sort();
}

it('runs every migration up, down and up again', async () => {
  const names = MIGRATIONS.map(([name]) => name);
  expect(await migrateToLatest(connection)).toEqual(names);
  const tables = await tableNames();
  expect(tables).toEqual(expect.arrayContaining(['users', 'roles', 'roles_users', 'sessions', 'integrations', 'api_keys', 'settings', 'posts', 'tags']));
  const roles = await connection.db.selectFrom('roles').select('name').execute();
  expect(roles).toHaveLength(11);

  expect(await migrateDownAll(connection)).toEqual([...names].reverse());
  expect(await tableNames()).toEqual([]);

  expect(await migrateToLatest(connection)).toEqual(names);
  expect(await tableNames()).toEqual(tables);
  expect(await migrateToLatest(connection)).toEqual([]);
});

it('stores timestamps in UTC and reads them back as Date at second precision on every engine', async () => {
  const at = new Date('2026-01-02T03:04:05.000Z');
  await connection.db.updateTable('roles').set({ updated_at: at }).where('name', '=', 'Editor').execute();
  const row = await connection.db.selectFrom('roles').select(['updated_at', 'created_at']).where('name', '=', 'Editor').executeTakeFirstOrThrow();
  expect(row.updated_at).toBeInstanceOf(Date);
  expect(row.updated_at!.toISOString()).toBe('2026-01-02T03:04:05.000Z');
  const later = await connection.db
    .selectFrom('roles')
    .select('name')
    .where('updated_at', '>', new Date('2026-01-02T03:04:04.000Z'))
    .where('name', '=', 'Editor')
    .execute();
  expect(later).toHaveLength(1);
  const user = await connection.db.selectFrom('users').select(['comment_notifications', 'paid_subscription_canceled_notification']).executeTakeFirstOrThrow();
  expect(user).toEqual({ comment_notifications: true, paid_subscription_canceled_notification: false });
  const count = await connection.db
    .selectFrom('roles')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  expect(Number(count.n)).toBe(11);
});
