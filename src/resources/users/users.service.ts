import type { ReadDb } from '../../db/read-db.js';
import type { RoleRow, UserRow } from '../../db/schema.js';
import type { Ctx } from '../../ctx.js';
import { actorOf, type Actor } from '../../auth/actor.js';
import { errors } from '../../errors.js';
import { generateSlug } from '../../content/slugs.js';
import { mayEditUser, type RoleTable } from '../../auth/staff-rules.js';
import { assertOwnPassword, assertPasswordPolicy, hashPassword } from '../../auth/passwords.js';
import { deleteUserSessions } from '../../auth/sessions.js';
import { readSetting } from '../../settings/settings.js';
import { emailTaken, findOwner, findUserById, loadRoles, roleOfUser, setUserRole, swapUserRole, updateUser, userSlugTaken } from './users.queries.js';
import { userChanges } from './users.rules.js';
import type { PasswordInput, UserEditInput } from './users.schemas.js';

/** Fields whose change is visible on the public site (Ghost then sends `X-Cache-Invalidate: /*`). */
const PUBLIC_USER_FIELDS = new Set<string>([
  'name',
  'slug',
  'profile_image',
  'cover_image',
  'bio',
  'website',
  'location',
  'facebook',
  'twitter',
  'mastodon',
  'youtube',
  'linkedin',
  'bluesky',
  'instagram',
  'tiktok',
  'threads',
  'status',
  'visibility',
  'meta_title',
  'meta_description',
]);

/** `me` stands for the authenticated user (integrations have none: `me` then finds nobody). */
export const resolveUserId = (actor: Actor, id: string) => (id === 'me' ? (actor.user?.id ?? 'me') : id);

const OBJECT_ID = /^[a-f\d]{24}$/i;
const invalidRole = () =>
  errors.validation({
    message: 'Role should be an existing role id or a role name',
    context: 'Invalid role assigned to the user',
    help: 'Change the provided role to a role id or use a role name.',
  });
const NAMED_ROLES = ['Administrator', 'Super Editor', 'Editor', 'Author', 'Contributor'];

/**
 * The role an edit asks for, as Ghost's `User.edit` resolves it: a role id or one of the assignable role
 * names; nothing when it is the current role or an unknown id; the Owner role is refused.
 */
function roleToAssign(wanted: unknown, current: RoleRow | null, roles: RoleTable): RoleRow | null {
  const key = typeof wanted === 'object' && wanted !== null ? ((wanted as { id?: unknown }).id ?? wanted) : wanted;
  if (current && key === current.id) return null;
  let role: RoleRow | undefined;
  if (typeof key === 'string' && NAMED_ROLES.includes(key)) {
    if (current?.name === key) return null;
    role = roles.byName.get(key);
  } else if (typeof key === 'string' && OBJECT_ID.test(key)) {
    role = roles.byId.get(key);
  } else {
    throw invalidRole();
  }
  if (role?.name === 'Owner') throw errors.validation('This method does not support assigning the owner role');
  return role ?? null;
}

export interface EditResult {
  user: UserRow;
  /** A publicly visible field changed: the site's cached pages are stale. */
  publicChange: boolean;
}

/** `PUT /users/:id/`: permission rules, then Ghost's checks in its order, then one transaction. */
export async function editUser(ctx: Ctx, id: string, input: UserEditInput): Promise<EditResult> {
  const { db } = ctx;
  const actor = actorOf(ctx);
  const target = await findUserById(db, id);
  if (!target) throw errors.notFound('User not found');
  const [roles, targetRole, owner] = await Promise.all([loadRoles(db), roleOfUser(db, target.id), findOwner(db)]);
  if (!mayEditUser(actor, { id: target.id, role: targetRole }, { status: input.status, roles: input.roles }, roles, owner?.id ?? '')) {
    throw errors.noPermission('You do not have permission to edit users');
  }

  const wantedRoles = input.roles;
  if (wantedRoles !== undefined && wantedRoles !== null && !Array.isArray(wantedRoles)) throw invalidRole();
  if (Array.isArray(wantedRoles) && wantedRoles.length > 1) throw errors.validation('Only one role per user is supported at the moment.');
  if (typeof input.email === 'string' && input.email && (await emailTaken(db, input.email, target.id))) throw errors.validation('Email is already in use');
  const changes = userChanges(input, target, ctx.site.url);
  const newRole = Array.isArray(wantedRoles) && wantedRoles.length === 1 ? roleToAssign(wantedRoles[0], targetRole, roles) : null;

  return ctx.write(async ({ db: trx, clock, actingUserId, events }) => {
    const slug = 'slug' in input ? await newSlug(trx, target, input.slug, changes.name ?? target.name) : undefined;
    const values = { ...changes, ...(slug !== undefined ? { slug } : {}) };
    const changed = Object.keys(values);
    if (changed.length > 0) {
      await updateUser(trx, target.id, { ...values, updated_at: clock.now(), updated_by: actingUserId });
    }
    if (newRole) await setUserRole(trx, target.id, newRole.id);
    const publicChange = changed.some((key) => PUBLIC_USER_FIELDS.has(key));
    // Ghost then answers `X-Cache-Invalidate: /*` and fires site.changed (`http/cache-invalidate.ts`).
    if (publicChange) events.record('site.changed', {});
    return { user: (await findUserById(trx, target.id))!, publicChange };
  });
}

/** A changed or emptied slug is regenerated (an empty one from the name); the user's own slug stays. */
async function newSlug(db: ReadDb, target: UserRow, wanted: unknown, name: string): Promise<string | undefined> {
  const given = typeof wanted === 'string' || typeof wanted === 'number' ? String(wanted) : '';
  if (given === target.slug) return undefined;
  const slug = await generateSlug(given || name, {
    kind: 'user',
    shortSlug: !given,
    taken: (candidate) => userSlugTaken(db, candidate, target.id),
  });
  return slug === target.slug ? undefined : slug;
}

/**
 * `PUT /users/password/`: your own password needs the old one; someone else's needs the right to edit
 * them. Every other session of that user ends (the caller's own stays).
 */
export async function changePassword(ctx: Ctx, data: PasswordInput): Promise<void> {
  const { db } = ctx;
  const actor = actorOf(ctx);
  const userId = String(data.user_id);
  const target = await findUserById(db, userId);
  if (!target) throw errors.notFound('User not found');
  const [roles, targetRole, owner] = await Promise.all([loadRoles(db), roleOfUser(db, target.id), findOwner(db)]);
  if (!mayEditUser(actor, { id: target.id, role: targetRole }, {}, roles, owner?.id ?? '')) {
    throw errors.noPermission('You do not have permission to edit user');
  }
  if (actor.user?.id === target.id) await assertOwnPassword(data.oldPassword, target.password);
  const password = String(data.newPassword);
  assertPasswordPolicy(password, { email: target.email, siteTitle: (await readSetting(db, 'title')) ?? undefined, siteUrl: ctx.site.url });
  const hash = await hashPassword(password);
  await ctx.write(async ({ db: trx, clock, actingUserId }) => {
    await updateUser(trx, target.id, { password: hash, updated_at: clock.now(), updated_by: actingUserId });
    await deleteUserSessions(trx, target.id, actor.session?.id);
  });
}

/** `PUT /users/owner/`: the Owner hands the role to an active Administrator and becomes one. */
export async function transferOwnership(ctx: Ctx, data: { id?: unknown }): Promise<[UserRow, UserRow]> {
  const { db } = ctx;
  const actor = actorOf(ctx);
  if (!actor.user || actor.role !== 'Owner') throw errors.noPermission('You do not have permission to perform this action');
  const target = typeof data.id === 'string' ? await findUserById(db, data.id) : undefined;
  if (!target) throw errors.notFound('User not found');
  const roles = await loadRoles(db);
  if ((await roleOfUser(db, target.id))?.name !== 'Administrator') throw errors.validation('Only administrators can be assigned the owner role.');
  if (target.status !== 'active') throw errors.validation('Only active administrators can be assigned the owner role.');
  const ownerUser = actor.user;
  await ctx.write(async ({ db: trx }) => {
    // Compare-and-set: of two transfers racing, only the first finds the caller still Owner.
    const demoted = await swapUserRole(trx, ownerUser.id, roles.byName.get('Owner')!.id, roles.byName.get('Administrator')!.id);
    if (!demoted) throw errors.noPermission('You do not have permission to perform this action');
    await setUserRole(trx, target.id, roles.byName.get('Owner')!.id);
  });
  return [(await findUserById(db, ownerUser.id))!, (await findUserById(db, target.id))!];
}
