import type { Db } from '../../db/connect.js';
import type { RoleRow, UserRow } from '../../db/schema.js';
import type { RoleName } from '../../auth/roles.js';

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** E-mail lookups are case-insensitive, as Ghost's login is. */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase())).executeTakeFirst();
}

/** Roles of several users in one query, keyed by user id. */
export async function rolesOfUsers(db: Db, userIds: readonly string[]): Promise<Map<string, RoleRow[]>> {
  const byUser = new Map<string, RoleRow[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await db
    .selectFrom('roles_users')
    .innerJoin('roles', 'roles.id', 'roles_users.role_id')
    .select(['roles_users.user_id', 'roles.id', 'roles.name', 'roles.description', 'roles.created_at', 'roles.updated_at'])
    .where('roles_users.user_id', 'in', userIds)
    .execute();
  for (const { user_id, ...role } of rows) byUser.get(user_id)?.push(role);
  return byUser;
}

export async function roleNameOfUser(db: Db, userId: string): Promise<RoleName | null> {
  const row = await db
    .selectFrom('roles_users')
    .innerJoin('roles', 'roles.id', 'roles_users.role_id')
    .select('roles.name')
    .where('roles_users.user_id', '=', userId)
    .executeTakeFirst();
  return (row?.name as RoleName | undefined) ?? null;
}

export async function roleIdByName(db: Db, name: RoleName): Promise<string> {
  const row = await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}
