import { errors } from '../errors.js';
import type { Actor } from './actor.js';
import type { RoleName } from './roles.js';

// Role letters as in Ghost's fixtures table: O A E Au C SE I (I = Admin Integration).
const LETTERS: Record<string, RoleName> = {
  O: 'Owner',
  A: 'Administrator',
  E: 'Editor',
  Au: 'Author',
  C: 'Contributor',
  SE: 'Super Editor',
  I: 'Admin Integration',
};

function roles(spec: string): ReadonlySet<RoleName> {
  return new Set(spec.split(' ').map((letter) => LETTERS[letter]!));
}

const ALL = 'O A E Au C SE I';

/**
 * Ghost's permission rows (`object.action` → roles holding it), from fixtures.json. The Owner holds
 * every row. Model-level rules (an Author edits only own posts, …) are applied by each resource.
 */
const TABLE = {
  'post.browse': ALL,
  'post.read': ALL,
  'post.add': ALL,
  'post.edit': ALL,
  'post.destroy': ALL,
  'post.publish': 'O A E SE I',
  'tag.browse': ALL,
  'tag.read': ALL,
  'tag.add': 'O A E Au SE I',
  'tag.edit': 'O A E SE I',
  'tag.destroy': 'O A E SE I',
  'user.browse': ALL,
  'user.read': ALL,
  'user.edit': 'O A E SE I',
  'user.destroy': 'O A E SE I',
  'role.browse': ALL,
  'role.assign': 'O A E SE I',
  'integration.browse': 'O A',
  'integration.read': 'O A',
  'integration.add': 'O A',
  'integration.edit': 'O A',
  'integration.destroy': 'O A',
  'invite.browse': 'O A E SE I',
  'invite.read': 'O A E SE I',
  'invite.add': 'O A E SE I',
  'invite.destroy': 'O A E SE I',
  'setting.browse': ALL,
  'setting.read': ALL,
  'setting.edit': 'O A I',
  'member.browse': 'O A SE I',
  'member.read': 'O A SE I',
  'member.add': 'O A SE I',
  'member.edit': 'O A SE I',
  'member.destroy': 'O A SE I',
  'label.browse': 'O A E Au SE I',
  'label.read': 'O A E Au SE I',
  'label.add': 'O A SE I',
  'label.edit': 'O A SE I',
  'label.destroy': 'O A SE I',
  'product.browse': 'O A E Au SE I',
  'product.read': 'O A E Au SE I',
  'product.add': 'O A I',
  'product.edit': 'O A I',
  'offer.browse': 'O A SE I',
  'offer.read': 'O A SE I',
  'offer.add': 'O A I',
  'offer.edit': 'O A I',
  'newsletter.browse': 'O A E Au SE I',
  'newsletter.read': 'O A E Au SE I',
  'newsletter.add': 'O A I',
  'newsletter.edit': 'O A I',
  'webhook.add': 'O A I',
  'webhook.edit': 'O A I',
  'webhook.destroy': 'O A I',
  'theme.browse': ALL,
  'theme.read': 'O A I',
  'theme.readActive': 'O A E Au SE I',
  'theme.add': 'O A I',
  'theme.activate': 'O A I',
  'theme.destroy': 'O A I',
  'snippet.browse': ALL,
  'snippet.read': ALL,
  'snippet.add': 'O A E SE I',
  'snippet.edit': 'O A E SE I',
  'snippet.destroy': 'O A E SE I',
  'db.exportContent': 'O A',
  'db.importContent': 'O A',
  'db.deleteAllContent': 'O A',
  'db.backupContent': 'O A',
  'authentication.resetAllPasswords': 'O A',
  // Rows no foundation route needed; listed so every fixture row answers as in Ghost (staff issue).
  'explore.read': 'O A I',
  'mail.send': 'O A I',
  'slug.generate': ALL,
  'theme.edit': 'O A I',
  'user.add': 'O A E SE I',
  'invite.edit': 'O A E SE I',
  'notification.browse': 'O A E SE I',
  'notification.add': 'O A E SE I',
  'notification.destroy': 'O A E SE I',
  'redirect.download': 'O A I',
  'redirect.upload': 'O A I',
  'api_key.browse': 'O A',
  'api_key.read': 'O A',
  'api_key.edit': 'O A',
  'api_key.add': 'O A',
  'api_key.destroy': 'O A',
  'action.browse': 'O A I',
  'product.destroy': 'O A',
  'email_preview.read': ALL,
  'email_preview.sendTestEmail': 'O A E SE I',
  'email.browse': 'O A E SE I',
  'email.read': ALL,
  'email.retry': 'O A E SE I',
  'member_signin_url.read': 'O A SE I',
  'identity.read': 'O A',
  'members_stripe_connect.auth': 'O A',
  'custom_theme_setting.browse': 'O A',
  'custom_theme_setting.edit': 'O A',
  'comment.browse': 'O A SE I',
  'comment.read': 'O A SE I',
  'comment.edit': 'O A SE I',
  'comment.add': 'O A SE I',
  'comment.destroy': 'O A SE I',
  'comment.moderate': 'O A SE I',
  'comment.like': 'O A SE I',
  'comment.unlike': 'O A SE I',
  'comment.report': 'O A SE I',
  'link.browse': 'O A I',
  'link.edit': 'O A I',
  'mention.browse': 'O A I',
  'collection.browse': ALL,
  'collection.read': ALL,
  'collection.edit': 'O A E SE I',
  'collection.add': 'O A E Au SE I',
  'collection.destroy': 'O A E SE I',
  'recommendation.browse': ALL,
  'recommendation.read': ALL,
  'recommendation.edit': 'O A I',
  'recommendation.add': 'O A I',
  'recommendation.destroy': 'O A I',
} as const satisfies Record<string, string>;

/** A permission row, `object.action` (`post.browse`, …): a route's `config.permission` is checked against this list. */
export type Permission = keyof typeof TABLE;

const PERMISSIONS = new Map(Object.entries(TABLE).map(([key, spec]) => [key as Permission, roles(spec)]));

/**
 * Whether the actor's role holds the permission row — the one place a row is checked: the admin hook
 * (`config.permission`) and the staff rules (`role.assign`, `invite.add`, …) all ask here.
 */
export function hasPermission(actor: Pick<Actor, 'role'>, permission: Permission): boolean {
  if (actor.role === 'Owner') return true;
  return PERMISSIONS.get(permission)?.has(actor.role) ?? false;
}

/** The row check with Ghost's message, `You do not have permission to <action> <docName>`. */
export function assertPermission(actor: Actor, permission: Permission, docName: string): void {
  if (hasPermission(actor, permission)) return;
  const action = permission.split('.')[1];
  throw errors.noPermission({ message: `You do not have permission to ${action} ${docName}` });
}

/**
 * Permission rows a role holds as stored in Ghost's fixtures (`roles.permissions`). The Owner holds none:
 * it passes every check without them.
 */
export function permissionRowsOf(role: string): Permission[] {
  if (role === 'Owner') return [];
  return [...PERMISSIONS].filter(([, holders]) => holders.has(role as RoleName)).map(([key]) => key);
}
