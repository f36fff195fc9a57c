import type { PermissionRow, RoleRow, UserRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';

export function presentPermission(permission: PermissionRow) {
  return {
    id: permission.id,
    name: permission.name,
    object_type: permission.object_type,
    action_type: permission.action_type,
    object_id: permission.object_id,
    created_at: isoDate(permission.created_at),
    updated_at: isoDate(permission.updated_at),
  };
}

/** A role; `permissions` only when `include=roles.permissions` asked for them. */
export function presentRole(role: RoleRow & { permissions?: PermissionRow[] }) {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    created_at: isoDate(role.created_at),
    updated_at: isoDate(role.updated_at),
    ...(role.permissions ? { permissions: role.permissions.map(presentPermission) } : {}),
  };
}

/** The social profiles both APIs show as stored (Ghost's Content API nulls only the older facebook and twitter). */
export const socialProfiles = (user: UserRow) => ({
  threads: user.threads,
  bluesky: user.bluesky,
  mastodon: user.mastodon,
  tiktok: user.tiktok,
  youtube: user.youtube,
  instagram: user.instagram,
  linkedin: user.linkedin,
});

/** Fields of the admin user shape, shared by every presenter below. */
function adminUserFields(user: UserRow) {
  return {
    id: user.id,
    name: user.name,
    slug: user.slug,
    email: user.email,
    profile_image: user.profile_image,
    cover_image: user.cover_image,
    bio: user.bio,
    website: user.website,
    location: user.location,
    facebook: user.facebook,
    twitter: user.twitter,
    ...socialProfiles(user),
    accessibility: user.accessibility,
    status: user.status,
    meta_title: user.meta_title,
    meta_description: user.meta_description,
    tour: user.tour,
    last_seen: isoDate(user.last_seen),
    comment_notifications: user.comment_notifications,
    free_member_signup_notification: user.free_member_signup_notification,
    paid_subscription_started_notification: user.paid_subscription_started_notification,
    paid_subscription_canceled_notification: user.paid_subscription_canceled_notification,
    mention_notifications: user.mention_notifications,
    recommendation_notifications: user.recommendation_notifications,
    milestone_notifications: user.milestone_notifications,
    donation_notifications: user.donation_notifications,
    created_at: isoDate(user.created_at),
    updated_at: isoDate(user.updated_at),
  };
}

export interface AdminUserExtras {
  /** The user's own permission rows (`include=permissions`); Ghost gives none to users by default. */
  permissions?: PermissionRow[];
  roles?: (RoleRow & { permissions?: PermissionRow[] })[];
  count?: { posts: number };
  url: string;
}

/** The Admin API user (never the password, locale or visibility). */
export function presentAdminUser(user: UserRow, extras: AdminUserExtras) {
  return {
    ...adminUserFields(user),
    ...(extras.permissions ? { permissions: extras.permissions.map(presentPermission) } : {}),
    ...(extras.roles ? { roles: extras.roles.map(presentRole) } : {}),
    ...(extras.count ? { count: extras.count } : {}),
    url: extras.url,
  };
}

/** `GET /session/` answers with the raw user record: the admin fields plus locale, visibility and authorship. */
export function presentSessionUser(user: UserRow) {
  return {
    ...adminUserFields(user),
    locale: user.locale,
    visibility: user.visibility,
    created_by: user.created_by,
    updated_by: user.updated_by,
  };
}

/**
 * `PUT /users/owner/` answers with the records as stored (Ghost serialises them without its user mapper):
 * `locale` and `visibility` after `status`, the roles, and no `url`.
 */
export function presentStoredUser(user: UserRow, roles: RoleRow[]) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(adminUserFields(user))) {
    out[key] = value;
    if (key === 'status') Object.assign(out, { locale: user.locale, visibility: user.visibility });
  }
  return { ...out, roles: roles.map((role) => presentRole(role)) };
}
