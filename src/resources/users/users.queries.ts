import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Api } from '../../browse/browse.js';
import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Database, PermissionRow, RoleRow, UserRow } from '../../db/schema.js';
import { OWNER_USER_ID, type RoleName } from '../../auth/roles.js';
import type { RoleTable } from '../../auth/staff-rules.js';
import { columnsOf } from '../../browse/fields.js';
import { USER_FIELDS } from './users.fields.js';

const USER_COLUMNS = columnsOf(USER_FIELDS);

export function findUserById(db: ReadDb, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Users by id, in no particular order. */
export function usersByIds(db: ReadDb, ids: readonly string[]): Promise<UserRow[]> {
  return ids.length ? db.selectFrom('users').select(USER_COLUMNS).where('id', 'in', ids).execute() : Promise.resolve([]);
}

export function findRole(db: ReadDb, id: string): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateUser(db: Db, id: string, changes: Partial<UserRow>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

export async function setUserRole(db: Db, userId: string, roleId: string): Promise<void> {
  await db.updateTable('roles_users').set({ role_id: roleId }).where('user_id', '=', userId).execute();
}

/** Moves a user from one role to another only while they still hold the first (a compare-and-set); whether it did. */
export async function swapUserRole(db: Db, userId: string, fromRoleId: string, toRoleId: string): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('roles_users')
    .set({ role_id: toRoleId })
    .where('user_id', '=', userId)
    .where('role_id', '=', fromRoleId)
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

/**
 * The owner's details given at setup; on the first run only while the owner is still inactive (of two setups
 * racing, one wins). Returns whether the row was written.
 */
export async function completeOwner(db: Db, ownerId: string, changes: Partial<UserRow>, firstRun: boolean): Promise<boolean> {
  let update = db.updateTable('users').set(changes).where('id', '=', ownerId);
  if (firstRun) update = update.where('status', '=', 'inactive');
  const { numUpdatedRows } = await update.executeTakeFirst();
  return numUpdatedRows > 0n;
}

/** A login: the user is active again and seen now. */
export async function markUserLoggedIn(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('users').set({ last_seen: at, status: 'active' }).where('id', '=', id).execute();
}

/** E-mail lookups are case-insensitive, as Ghost's login is. */
export function findUserByEmail(db: ReadDb, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

/** Roles of several users in one query, keyed by user id. */
export async function rolesOfUsers(db: ReadDb, userIds: readonly string[]): Promise<Map<string, RoleRow[]>> {
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

export async function roleNameOfUser(db: ReadDb, userId: string): Promise<RoleName | null> {
  const row = await db
    .selectFrom('roles_users')
    .innerJoin('roles', 'roles.id', 'roles_users.role_id')
    .select('roles.name')
    .where('roles_users.user_id', '=', userId)
    .executeTakeFirst();
  return (row?.name as RoleName | undefined) ?? null;
}

export async function roleIdByName(db: ReadDb, name: RoleName): Promise<string> {
  const row = await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}

/** Is `slug` taken by a user other than `exceptId`? */
export async function userSlugTaken(db: ReadDb, slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('slug', '=', slug);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export function findUserBySlug(db: ReadDb, slug: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('slug', '=', slug).executeTakeFirst();
}

/** Is the e-mail (any case) used by a user other than `exceptId`? */
export async function emailTaken(db: ReadDb, email: string, exceptId?: string): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()));
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * An author's `count.posts` (Ghost's `countRelations`): the Admin API counts every post and page, the
 * Content API published posts only. A correlated subquery, so browse can order by it and a page reads it
 * in one query.
 */
export function authorPostCount(eb: ExpressionBuilder<Database, 'users'>, api: Api) {
  let count = eb.selectFrom('posts').innerJoin('posts_authors', 'posts_authors.post_id', 'posts.id').whereRef('posts_authors.author_id', '=', 'users.id');
  if (api === 'content') count = count.where('posts.type', '=', 'post').where('posts.status', '=', 'published');
  return count.select(sql<number>`count(posts.id)`.as('n'));
}

/** `count.posts` of each of these users. */
export async function postCountsOfAuthors(db: ReadDb, userIds: readonly string[], api: Api): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['users.id', (eb) => authorPostCount(eb, api).as('n')])
    .where('users.id', 'in', userIds)
    .execute();
  return new Map(rows.map((row) => [row.id, Number(row.n)]));
}

/**
 * A user is a public author once attached to at least one published post or page: the Content API lists
 * and reads only those, and only their author `url` is routable. EXISTS stops at the first such post, so
 * the cost does not grow with the author's archive.
 */
export function authorHasPublishedPost(eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('posts_authors')
      .innerJoin('posts', 'posts.id', 'posts_authors.post_id')
      .select('posts_authors.id')
      .whereRef('posts_authors.author_id', '=', 'users.id')
      .where('posts.status', '=', 'published'),
  );
}

/** Which of these users are public authors (see authorHasPublishedPost). */
export async function authorsWithPublishedPosts(db: ReadDb, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('users.id').where('users.id', 'in', userIds).where(authorHasPublishedPost).execute();
  return new Set(rows.map((row) => row.id));
}

/** Every permission row (Ghost's fixtures: a hundred or so). */
export function listPermissions(db: ReadDb): Promise<PermissionRow[]> {
  return db.selectFrom('permissions').selectAll().execute();
}

/** All roles by id and name (eleven rows). */
export async function loadRoles(db: ReadDb): Promise<RoleTable> {
  const rows = await db.selectFrom('roles').selectAll().execute();
  return { byId: new Map(rows.map((r) => [r.id, r])), byName: new Map(rows.map((r) => [r.name, r])) };
}

export async function roleOfUser(db: ReadDb, userId: string): Promise<RoleRow | null> {
  return (await rolesOfUsers(db, [userId])).get(userId)?.[0] ?? null;
}

/** The user holding the Owner role (id `1` until ownership is transferred). */
export async function findOwner(db: ReadDb): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS.map((column) => `users.${column}` as const))
    .innerJoin('roles_users', 'roles_users.user_id', 'users.id')
    .innerJoin('roles', 'roles.id', 'roles_users.role_id')
    .where('roles.name', '=', 'Owner')
    .executeTakeFirst();
}

/** The Owner's id; before the Owner's role row exists (a fresh database), the seeded owner's id `1`. */
export async function ownerUserId(db: ReadDb): Promise<string> {
  return (await findOwner(db))?.id ?? OWNER_USER_ID;
}
