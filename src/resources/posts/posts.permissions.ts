import type { Actor } from '../../auth/actor.js';
import { errors } from '../../errors.js';
import type { AuthorRef } from './posts.input.js';

/** What a request asks to change that the role rules look at (Ghost's `unsafeAttrs`). */
export interface UnsafeAttrs {
  status?: string;
  visibility?: string;
  authors?: AuthorRef[];
}

export interface ExistingPost {
  status: string;
  visibility: string;
  authorIds: readonly string[];
}

/** Fields the body may not set for this actor; they are dropped after the check passes. */
export interface Allowed {
  dropTags: boolean;
  dropAuthors: boolean;
}

const deny = () => errors.noPermission('You do not have permission to perform this action');

/**
 * Model-level rules for posts and pages, applied after the role's permission row.
 * Contributors write only their own drafts; Authors only posts they (co-)author; neither may change the
 * primary author or the visibility; Editors, Administrators, the Owner and integrations may do anything.
 */
export function checkPostPermission(actor: Actor, action: 'add' | 'edit' | 'destroy', unsafe: UnsafeAttrs, existing: ExistingPost | null): Allowed {
  const role = actor.role;
  const isContributor = role === 'Contributor';
  const isAuthor = role === 'Author';
  if (!isContributor && !isAuthor) return { dropTags: false, dropAuthors: false };

  const userId = actor.user?.id;
  const changing = (attr: 'status' | 'visibility') => unsafe[attr] !== undefined && unsafe[attr] !== existing?.[attr];
  const authorIds = existing?.authorIds ?? [];
  const changingAuthors = unsafe.authors !== undefined && (unsafe.authors.length === 0 || unsafe.authors[0]?.id !== authorIds[0]);
  const namesSelfFirst = unsafe.authors !== undefined && unsafe.authors.length > 0 && unsafe.authors[0]?.id === userId;
  const isCoAuthor = userId !== undefined && authorIds.includes(userId);
  const isPrimaryAuthor = userId !== undefined && authorIds[0] === userId;
  const isDraft = existing?.status === 'draft';

  let allowed: boolean;
  if (action === 'add') {
    allowed = namesSelfFirst && (!isContributor || !unsafe.status || unsafe.status === 'draft');
  } else if (action === 'edit') {
    allowed = isCoAuthor && !changingAuthors && !changing('visibility') && (!isContributor || (!changing('status') && isDraft));
  } else {
    allowed = isPrimaryAuthor && (!isContributor || isDraft);
  }
  if (!allowed) throw deny();
  return { dropTags: isContributor, dropAuthors: true };
}

/** Bulk edits and deletes reach every matching post: Authors and Contributors, limited to their own, may not use them. */
export function checkBulkPermission(actor: Actor): void {
  if (actor.role === 'Author' || actor.role === 'Contributor') throw deny();
}
