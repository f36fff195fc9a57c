import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import type { PostRow } from '../../db/schema.js';
import { claimScheduled, dueScheduledIds, findAnyPost, findPostMeta, updatePost } from './posts.queries.js';
import { beforeChange } from './posts.events.js';
import { afterPostChange } from './posts.publish.js';
import { transition } from './posts.transition.js';
import { ownerUserId } from '../users/users.queries.js';
import type { PostType } from './posts.schemas.js';

/** Scheduled posts published per pass of the job runner; the next pass takes the rest at once. */
const DUE_BATCH = 50;

/**
 * Publishes one scheduled post or page whose time has come, as a manual publish does: status `published`,
 * `published_by` the acting user (the Owner for the job runner, as Ghost's internal context), the same
 * events (`post.published`, `post.edited`, `site.changed`) in the same transaction.
 *
 * Exactly once across instances: the first statement is an UPDATE that matches the row only while it is
 * still `scheduled` and due. It takes the row's lock; an instance racing for the same post waits for it,
 * then finds the row published and matches nothing (PostgreSQL and InnoDB re-check an UPDATE's condition
 * against the committed row; SQLite runs one writer at a time). `dueBy` null publishes whatever the time
 * (the scheduler endpoint checks it itself). Returns the row as it was, or null when another instance (or
 * an edit) got there first.
 */
export async function publishScheduled(ctx: Ctx, id: string, dueBy: Date | null): Promise<PostRow | null> {
  return ctx.write(async (w) => {
    if (!(await claimScheduled(w.db, id, dueBy))) return null;
    const existing = (await findAnyPost(w.db, id))!;
    const type = existing.type as PostType;
    const before = await beforeChange(w, type, id);
    const at = w.clock.now();
    // The scheduler publishes, never sends: an e-mail-only post goes out as `published` here.
    const moved = transition(existing, { status: 'published', published_at: existing.published_at }, { at, userId: w.actingUserId, emailOnly: false });
    const change = { status: moved.status, published_by: moved.published_by, updated_at: at, updated_by: w.actingUserId };
    await updatePost(w.db, id, change);
    // The runner's revision is the Owner's, as Ghost's internal context records it.
    const authorId = w.actor?.user?.id ?? (await ownerUserId(w.db));
    const next = { ...existing, ...change };
    const meta = await findPostMeta(w.db, id);
    await afterPostChange(w, { type, existing, next, meta, newsletter: null, authorId, saveRevision: false, wasChanged: true, before });
    return existing;
  });
}

/** A post or page a pass published: what the runner's log line says of it. */
export interface DuePublished {
  id: string;
  type: string;
  publishedAt: Date;
  ms: number;
}

/**
 * One pass of the job runner: publishes every scheduled post and page due by `now`, oldest first (so
 * posts that fell due while no instance ran go at start). Returns those this instance published.
 */
export async function publishDuePosts(ctx: Ctx, now: Date): Promise<DuePublished[]> {
  const due = await dueScheduledIds(ctx.db, now, DUE_BATCH);
  const published: DuePublished[] = [];
  for (const id of due) {
    const started = performance.now();
    const row = await publishScheduled(ctx, id, now);
    if (row) published.push({ id, type: row.type, publishedAt: row.published_at ?? now, ms: Math.round(performance.now() - started) });
  }
  return published;
}

/** Ghost's `times.publishAPostBySchedulerToleranceInMinutes`. */
const SCHEDULER_TOLERANCE_MINUTES = 2;

/**
 * `PUT /schedules/:resource/:id/`, Ghost's scheduler callback: publishes the scheduled post now when its
 * time is within two minutes (whole minutes, truncated, as moment's `diff` counts), earlier only never,
 * later only with `force`. A post the job runner already published is no longer scheduled: 404, as Ghost
 * answers a post that is not scheduled.
 */
export async function publishOnSchedulerCall(ctx: Ctx, type: PostType, id: string, force: boolean): Promise<void> {
  const notFound = () => errors.notFound(type === 'post' ? 'Post not found.' : 'Page not found.');
  const row = await findAnyPost(ctx.db, id);
  if (!row || row.type !== type || row.status !== 'scheduled' || !row.published_at) throw notFound();
  const minutes = Math.trunc((row.published_at.getTime() - ctx.clock.epochMs()) / 60_000);
  if (minutes > SCHEDULER_TOLERANCE_MINUTES) throw errors.notFound('Job not found.');
  if (minutes < -SCHEDULER_TOLERANCE_MINUTES && !force) throw errors.notFound('Use the force flag to publish a post in the past.');
  if (!(await publishScheduled(ctx, id, null))) throw notFound();
}
