import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/auth/passwords.js';
import type { RoleName } from '../src/auth/roles.js';
import { objectId } from '../src/db/ids.js';
import { systemClock } from '../src/clock.js';
import { login, type TestApp } from './support.js';

/** A staff user of the given role, inserted directly (the users API is another issue's), logged in. */
export async function createStaff(t: TestApp, role: RoleName, name = `${role} Person`): Promise<{ id: string; cookie: string }> {
  const { db } = t.connection;
  const id = objectId();
  const email = `${role.toLowerCase().replace(/\s+/g, '-')}-${id}@example.com`;
  const password = 'Very-secret-pass-9';
  await db.insertInto('users').values({
    id, name, slug: `${role.toLowerCase().replace(/\s+/g, '-')}-${id}`, email, password: await hashPassword(password), status: 'active',
    created_at: systemClock.now(), created_by: id, updated_at: systemClock.now(), updated_by: id,
  } as never).execute();
  const roleRow = await db.selectFrom('roles').select('id').where('name', '=', role).executeTakeFirstOrThrow();
  await db.insertInto('roles_users').values({ id: objectId(), role_id: roleRow.id, user_id: id }).execute();
  return { id, cookie: await login(t.app, email, password) };
}

/** The only resource of an envelope (`posts[0]`, `tags[0]`, …). */
export function first(res: LightMyRequestResponse, key: string) {
  const body = res.json() as Record<string, Record<string, unknown>[]>;
  if (!Array.isArray(body[key]) || body[key]!.length === 0) throw new Error(`no ${key} in ${res.statusCode} ${res.body}`);
  return body[key]![0] as Record<string, any>;
}

/** Row counts of every posts table: a failed write must leave them all unchanged. */
export async function tableCounts(t: TestApp): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['posts', 'posts_meta', 'posts_tags', 'posts_authors', 'post_revisions', 'tags'] as const) {
    const row = await t.connection.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}
