import type { PostRow } from '../../db/schema.js';
import { checkSchedule, checkStatusChange } from './posts.rules.js';
import { effectiveStatus, sameTime } from './posts.model.js';

/**
 * The status machine of a post or page, in one place: draft → scheduled → published → sent, and back to
 * draft (unpublish, unschedule). Add, edit, the scheduler and bulk edit all move a post through it.
 */
export type StatusColumns = Pick<PostRow, 'status' | 'published_at' | 'published_by'>;

export interface TransitionContext {
  at: Date;
  /** Recorded as `published_by` when the post goes live. */
  userId: string;
  /** `posts_meta.email_only` after the write: publishing an e-mail-only post sends it instead. */
  emailOnly: boolean;
}

export interface Transition extends StatusColumns {
  /** Back to draft from elsewhere: the e-mail settings are forgotten unless an email already went out. */
  leavesPublication: boolean;
}

const isLive = (status: string) => status === 'published' || status === 'sent';

/**
 * Moves a post (`was` null for a new one) to the status and `published_at` a write asks for, with Ghost's
 * checks: a published post cannot be scheduled, a schedule needs a date no more than two minutes past.
 */
export function transition(was: StatusColumns | null, requested: Pick<PostRow, 'status' | 'published_at'>, ctx: TransitionContext): Transition {
  if (was) checkStatusChange(was.status, requested.status);
  const publishedAtChanged = was ? !sameTime(requested.published_at, was.published_at) : requested.published_at !== null;
  checkSchedule(requested.status, requested.published_at, publishedAtChanged, ctx.at);
  const status = effectiveStatus(requested.status, was?.status ?? null, ctx.emailOnly);
  const live = isLive(status);
  return {
    status,
    published_at: live && !requested.published_at ? ctx.at : requested.published_at,
    published_by: live && status !== was?.status ? ctx.userId : (was?.published_by ?? null),
    leavesPublication: status === 'draft' && was !== null && was.status !== 'draft',
  };
}

/**
 * The bulk actions that change status (`PUT /posts/bulk/`): which posts they take and what they write. Like
 * Ghost's bulk edits they write these columns only (no `published_by`, no e-mail reset, no `updated_at`).
 */
export const BULK_TRANSITIONS = {
  unpublish: { from: 'published', set: { status: 'draft' } },
  unschedule: { from: 'scheduled', set: { status: 'draft', published_at: null } },
} as const satisfies Record<string, { from: string; set: Partial<StatusColumns> }>;
