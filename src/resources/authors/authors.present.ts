import type { RoleRow, UserRow } from '../../db/schema.js';
import { presentAdminUser, socialProfiles } from '../users/users.present.js';

export interface AuthorExtras {
  url: string;
  count?: { posts: number };
}

/** The Content API author: public profile fields only; a few empty strings shown as null. */
export function presentContentAuthor(user: UserRow, extras: AuthorExtras) {
  return {
    id: user.id,
    name: user.name,
    slug: user.slug,
    profile_image: user.profile_image,
    cover_image: user.cover_image,
    bio: user.bio || null,
    website: user.website || null,
    location: user.location || null,
    facebook: user.facebook || null,
    twitter: user.twitter || null,
    ...socialProfiles(user),
    meta_title: user.meta_title || null,
    meta_description: user.meta_description || null,
    ...(extras.count ? { count: extras.count } : {}),
    url: extras.url,
  };
}

/** An author embedded in an Admin API post: the admin user shape, with roles when `authors.roles` is included. */
export function presentPostAuthor(user: UserRow, url: string, roles: RoleRow[] | undefined) {
  return presentAdminUser(user, { url, ...(roles ? { roles } : {}) });
}
