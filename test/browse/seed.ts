import type { Kysely } from 'kysely';
import { readFileSync } from 'node:fs';
import type { Db } from '../../src/db/connect.js';

/** Rows the reference Ghost stored for test/browse/dataset.mjs (written by test/browse/record.mjs). */
export type Snapshot = Record<'users' | 'roles_users' | 'tags' | 'posts' | 'posts_meta' | 'posts_tags' | 'posts_authors', Record<string, unknown>[]>;

export function loadSnapshot(): Snapshot {
  return JSON.parse(readFileSync(new URL('../fixtures/browse/seed.json', import.meta.url), 'utf8')) as Snapshot;
}

const isDateColumn = (key: string) => /_at$|^last_seen$/.test(key);
const rowOf = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === 'string' && isDateColumn(key) ? new Date(value) : value]));

async function insertAll(db: Kysely<any>, table: string, rows: Record<string, unknown>[]) {
  for (let i = 0; i < rows.length; i += 50)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 50).map(rowOf))
      .execute();
}

/**
 * Seeds the snapshot into a migrated database whose owner (id 1) exists: the owner takes the peer's
 * profile (not its password or e-mail, so logins keep working), everything else is inserted as stored.
 */
export async function seedSnapshot(database: Db, snapshot: Snapshot = loadSnapshot()): Promise<void> {
  const db = database as unknown as Kysely<any>;
  const [owner, ...users] = snapshot.users;
  const { id: _id, password: _password, email: _email, ...ownerProfile } = owner!;
  await db.updateTable('users').set(rowOf(ownerProfile)).where('id', '=', '1').execute();
  await insertAll(db, 'users', users);
  const roles = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name as string, r.id as string]));
  await insertAll(
    db,
    'roles_users',
    snapshot.roles_users.filter((r) => r.user_id !== '1').map(({ role, ...rest }) => ({ ...rest, role_id: roles.get(role as string) })),
  );
  for (const table of ['tags', 'posts', 'posts_meta', 'posts_tags', 'posts_authors'] as const) await insertAll(db, table, snapshot[table]);
}
