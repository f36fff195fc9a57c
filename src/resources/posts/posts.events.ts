import type { WriteCtx } from '../../ctx.js';
import type { PostRow } from '../../db/schema.js';
import { sameTime } from './posts.model.js';
import { findAnyPost } from './posts.queries.js';
import { adminPosts } from './posts.responses.js';
import type { PostType } from './posts.schemas.js';

/**
 * Ghost's post and page webhook events, recorded in the write's transaction (`ctx.write`): the payload is
 * `{post: {current, previous}}` (or `page`) with the post serialised as the Admin API reads it, with the
 * formats mobiledoc, html and plaintext and its tags and authors (reference/webhooks-and-events.md §4).
 * `*.tag.attached` / `*.tag.detached` carry the post too (Ghost emits them on the post model, once per tag),
 * with the same `current` and `previous` as the save's other events. Not built yet: events of bulk edits and
 * bulk deletes.
 */

type Snapshot = Record<string, unknown>;

const SUFFIXES = [
  'added',
  'edited',
  'deleted',
  'published',
  'published.edited',
  'unpublished',
  'scheduled',
  'unscheduled',
  'rescheduled',
  'tag.attached',
  'tag.detached',
] as const;

/**
 * Whether any webhook listens to this type's events. Serialising a post twice per write costs queries
 * inside the transaction; without a listener the events would only be fanned out to nobody.
 */
async function listened(w: WriteCtx, type: PostType): Promise<boolean> {
  const names = SUFFIXES.map((suffix) => `${type}.${suffix}`);
  return !!(await w.db.selectFrom('webhooks').select('id').where('event', 'in', names).limit(1).executeTakeFirst());
}

/** The post as a webhook carries it; null when it does not exist (any more). */
async function snapshot(w: WriteCtx, id: string): Promise<Snapshot | null> {
  const row = await findAnyPost(w.db, id);
  if (!row) return null;
  const [post] = await adminPosts(w.db, [row], {
    siteUrl: w.site.url,
    engine: w.engine,
    include: ['tags', 'authors'],
    formats: new Set(['mobiledoc', 'html', 'plaintext']),
  });
  return post ?? null;
}

/** The previous values restricted to the keys this save changed, as Ghost sends `previous`. */
function changedKeys(before: Snapshot, after: Snapshot): Snapshot {
  return Object.fromEntries(Object.entries(before).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(after[key])));
}

function record(w: WriteCtx, type: PostType, id: string, suffix: (typeof SUFFIXES)[number], current: Snapshot, previous: Snapshot): void {
  w.events.record(`${type}.${suffix}`, { [type]: { current, previous } }, { type, id });
}

/** Ids of the tags in a snapshot (`tags` is always included). */
const tagIds = (post: Snapshot) => ((post.tags as { id: string }[] | undefined) ?? []).map((tag) => tag.id);

/** One `tag.attached` per tag `current` has and `before` had not (every tag on an insert). */
function recordTagsAttached(w: WriteCtx, type: PostType, id: string, current: Snapshot, previous: Snapshot, before: string[]): void {
  for (const tag of tagIds(current)) if (!before.includes(tag)) record(w, type, id, 'tag.attached', current, previous);
}

/**
 * After an insert: `added`, one `tag.attached` per tag, then `published` or `scheduled` by the new status
 * (the order Ghost's webhooks arrive in, reference/webhooks-and-events.md §1).
 */
export async function recordAdded(w: WriteCtx, type: PostType, row: Pick<PostRow, 'id' | 'status'>): Promise<void> {
  if (!(await listened(w, type))) return;
  const current = (await snapshot(w, row.id))!;
  record(w, type, row.id, 'added', current, {});
  recordTagsAttached(w, type, row.id, current, {}, []);
  if (row.status === 'published') record(w, type, row.id, 'published', current, {});
  if (row.status === 'scheduled') record(w, type, row.id, 'scheduled', current, {});
}

/** Taken before an edit or delete changes the row: what `previous` is made from. */
export async function beforeChange(w: WriteCtx, type: PostType, id: string): Promise<Snapshot | null> {
  return (await listened(w, type)) ? snapshot(w, id) : null;
}

type StatusOf = Pick<PostRow, 'status' | 'published_at'>;

/**
 * After an update: the tags detached and attached (Ghost writes relations before the row, so their events
 * come first), the status event Ghost's model fires for the transition, then `edited`.
 */
export async function recordEdited(w: WriteCtx, type: PostType, id: string, before: Snapshot | null, was: StatusOf, is: StatusOf): Promise<void> {
  if (!before) return;
  const current = (await snapshot(w, id))!;
  const previous = changedKeys(before, current);
  const kept = tagIds(current);
  for (const tag of tagIds(before)) if (!kept.includes(tag)) record(w, type, id, 'tag.detached', current, previous);
  recordTagsAttached(w, type, id, current, previous, tagIds(before));
  const changing = was.status !== is.status;
  if (is.status === 'published' && changing) record(w, type, id, 'published', current, previous);
  else if (was.status === 'published' && changing) record(w, type, id, 'unpublished', current, previous);
  else if (is.status === 'published') record(w, type, id, 'published.edited', current, previous);
  if (is.status === 'scheduled' && was.status !== 'scheduled') record(w, type, id, 'scheduled', current, previous);
  else if (was.status === 'scheduled' && is.status !== 'scheduled' && is.status !== 'published') record(w, type, id, 'unscheduled', current, previous);
  else if (was.status === 'scheduled' && is.status === 'scheduled' && !sameTime(was.published_at, is.published_at))
    record(w, type, id, 'rescheduled', current, previous);
  record(w, type, id, 'edited', current, previous);
}

/** After a delete: `unpublished` when it was published, then `deleted`; `current` is empty, as in Ghost. */
export function recordDeleted(w: WriteCtx, type: PostType, id: string, before: Snapshot | null, was: Pick<PostRow, 'status'>): void {
  if (!before) return;
  if (was.status === 'published') record(w, type, id, 'unpublished', {}, before);
  record(w, type, id, 'deleted', {}, before);
}
