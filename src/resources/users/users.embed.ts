import type { ReadDb } from '../../db/read-db.js';
import type { PermissionRow, UserRow } from '../../db/schema.js';
import { authorUrl } from '../../content/urls.js';
import { permissionRowsOf } from '../../auth/permissions.js';
import { presentAdminUser } from './users.present.js';
import { authorsWithPublishedPosts, listPermissions, postCountsOfAuthors, rolesOfUsers } from './users.queries.js';

/** `include` values the users endpoints accept; others are dropped, as Ghost drops them. */
export const USER_INCLUDES = ['count.posts', 'permissions', 'roles', 'roles.permissions'] as const;

async function permissionsByRole(db: ReadDb): Promise<(role: string) => PermissionRow[]> {
  const rows = await listPermissions(db);
  const byKey = new Map(rows.map((row) => [`${row.object_type}.${row.action_type}`, row]));
  return (role) => permissionRowsOf(role).flatMap((key) => byKey.get(key) ?? []);
}

/** Admin users with what `include` asked for, loaded for the whole page in a few queries. */
export async function presentUsers(db: ReadDb, siteUrl: string, users: UserRow[], include: readonly string[]) {
  const ids = users.map((user) => user.id);
  const withRoles = include.includes('roles') || include.includes('roles.permissions');
  const [roles, counts, published, rolePermissions] = await Promise.all([
    withRoles ? rolesOfUsers(db, ids) : null,
    include.includes('count.posts') ? postCountsOfAuthors(db, ids, 'admin') : null,
    authorsWithPublishedPosts(db, ids),
    include.includes('roles.permissions') ? permissionsByRole(db) : null,
  ]);
  return users.map((user) =>
    presentAdminUser(user, {
      permissions: include.includes('permissions') ? [] : undefined,
      roles: roles?.get(user.id)?.map((role) => (rolePermissions ? { ...role, permissions: rolePermissions(role.name) } : role)),
      count: counts ? { posts: counts.get(user.id) ?? 0 } : undefined,
      url: authorUrl(siteUrl, user.slug, published.has(user.id)),
    }),
  );
}
