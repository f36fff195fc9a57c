import type { RoleRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { Actor } from './actor.js';
import { hasPermission } from './permissions.js';

/**
 * Ghost's model-level rules for staff (`models/user.js`, `role.js`, `invite.js` `permissible`), applied
 * after the permission row: who may edit, delete, promote or invite whom. They answer allowed or not;
 * callers turn "not" into the endpoint's permission error.
 */
const EITHER_EDITOR = new Set(['Editor', 'Super Editor']);
const AUTHOR_OR_CONTRIBUTOR = new Set(['Author', 'Contributor']);

const ASSIGNABLE_BY: Readonly<Record<string, readonly string[]>> = {
  Owner: ['Owner', 'Administrator', 'Super Editor', 'Editor', 'Author', 'Contributor'],
  Administrator: ['Administrator', 'Super Editor', 'Editor', 'Author', 'Contributor'],
  Editor: ['Author', 'Contributor'],
  'Super Editor': ['Author', 'Contributor'],
};

const INVITABLE_BY_STAFF: Readonly<Record<string, readonly string[]>> = {
  Owner: ['Administrator', 'Editor', 'Author', 'Contributor', 'Super Editor'],
  Administrator: ['Administrator', 'Editor', 'Author', 'Contributor', 'Super Editor'],
  Editor: ['Author', 'Contributor'],
  'Super Editor': ['Author', 'Contributor'],
};
const INVITABLE_BY_INTEGRATIONS = ['Editor', 'Author', 'Contributor', 'Super Editor'];

/** `role.assign`: staff by their role's list; integrations anything but Owner. */
export function canAssignRole(actor: Actor, roleName: string): boolean {
  if (!actor.user) return roleName !== 'Owner' && hasPermission(actor, 'role.assign');
  return ASSIGNABLE_BY[actor.role]?.includes(roleName) ?? false;
}

/** `invite.add` with the invited role: never Owner; the list depends on who invites. */
export function canInviteRole(actor: Actor, roleName: string): boolean {
  if (roleName === 'Owner') return false;
  const allowed = actor.user ? (INVITABLE_BY_STAFF[actor.role] ?? []) : INVITABLE_BY_INTEGRATIONS;
  return allowed.includes(roleName) && hasPermission(actor, 'invite.add');
}

export interface RoleTable {
  byId: ReadonlyMap<string, RoleRow>;
  byName: ReadonlyMap<string, RoleRow>;
}

export interface TargetUser {
  id: string;
  role: RoleRow | null;
}

/** What an edit asks for that needs more than `user.edit`: a status or a role. */
export interface UnsafeAttrs {
  status?: unknown;
  roles?: unknown;
}

/**
 * `User.permissible(edit)`: anyone edits themselves; only the Owner edits the Owner; (Super) Editors edit
 * Authors and Contributors; nobody suspends or re-roles themselves; role changes follow `role.assign`.
 * Throws 404 `Role not found` when a role to check is not a role id (Ghost looks it up by id).
 */
export function mayEditUser(actor: Actor, target: TargetUser, unsafe: UnsafeAttrs, roles: RoleTable, ownerId: string): boolean {
  const me = actor.user;
  if (!me) return hasPermission(actor, 'user.edit');
  const targetRole = target.role?.name;
  const self = me.id === target.id;
  let allowed = hasPermission(actor, 'user.edit');
  if (self) allowed = true;
  else if (targetRole === 'Owner') allowed = actor.role === 'Owner';
  else if (EITHER_EDITOR.has(actor.role)) allowed = AUTHOR_OR_CONTRIBUTOR.has(targetRole ?? '');

  if (self && (unsafe.status === 'inactive' || unsafe.status === 'locked')) return false;

  const wanted = Array.isArray(unsafe.roles) ? unsafe.roles[0] : undefined;
  if (!wanted) return allowed;
  const roleId = typeof wanted === 'object' && wanted !== null ? (wanted as { id?: unknown }).id : wanted;
  const ownRoleId = roles.byName.get(actor.role)?.id;
  if (roleId !== ownRoleId && self) return false;
  if (me.id === ownerId) return allowed;
  if (target.id === ownerId) {
    if (target.role?.id !== roleId) return false;
  } else if (roleId !== ownRoleId && typeof roleId === 'string') {
    const role = roles.byId.get(roleId);
    if (!role) throw errors.notFound('Role not found');
    if (!canAssignRole(actor, role.name)) return false;
  }
  return allowed;
}

/** `User.permissible(destroy)`: never the Owner; (Super) Editors only Authors, Contributors and themselves. */
export function mayDestroyUser(actor: Actor, target: TargetUser): boolean {
  const targetRole = target.role?.name ?? '';
  if (targetRole === 'Owner') return false;
  if (actor.user && EITHER_EDITOR.has(actor.role)) return actor.user.id === target.id || AUTHOR_OR_CONTRIBUTOR.has(targetRole);
  return hasPermission(actor, 'user.destroy');
}
