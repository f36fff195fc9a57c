import type { WriteCtx } from '../../ctx.js';
import type { PostRow } from '../../db/schema.js';
import { sameTime } from './posts.model.js';
import { findAnyPost } from './posts.queries.js';
import { adminPosts } from './posts.responses.js';
import type { PostType } from './posts.schemas.js';
import { anyWebhookListens } from '../../events/listeners.js';
import { POST_EVENT_SUFFIXES, previousValues, type EventPayloads, type PostEventSuffix, type Snapshot } from '../../events/names.js';

/**
 * Ghost's post and page webhook events, recorded in the write's transaction (`ctx.write`): the payload is
 * `{post: {current, previous}}` (or `page`) with the post serialised as the Admin API reads it, with the
 * formats mobiledoc, html and plaintext and its tags and authors.
 * `*.tag.attached` / `*.tag.detached` carry the post too (Ghost emits them on the post model, once per tag),
 * with the same `current` and `previous` as the save's other events. Not built yet: events of bulk edits and
 * bulk deletes. The payload follows what Ghost 5.130.6 sends (compared with it): an edit's model had its
 * authors' roles and the post's counts loaded, an insert's did not; `previous` keeps the post's own columns
 * and its tags and authors, only those that changed; a delete's `previous` is the row as the model held it.
 */

export type { Snapshot };

const SUFFIXES = POST_EVENT_SUFFIXES;

/** Whether any webhook listens to this type's events (a post is serialised twice per write otherwise for nobody). */
const listened = (w: WriteCtx, type: PostType) =>
  anyWebhookListens(
    w.db,
    SUFFIXES.map((suffix) => `${type}.${suffix}`),
  );

/** What Ghost's post model had loaded when it fired: more after an edit than after an insert. */
const INCLUDES = {
  inserted: { post: ['tags', 'authors', 'tiers', 'post_revisions'], page: ['tags', 'authors', 'tiers', 'post_revisions'] },
  updated: {
    post: ['tags', 'authors', 'authors.roles', 'tiers', 'post_revisions', 'post_revisions.author', 'count.clicks'],
    page: ['tags', 'authors', 'authors.roles', 'tiers', 'post_revisions', 'post_revisions.author', 'count.signups', 'count.paid_conversions'],
  },
} as const;

/** The post as a webhook carries it; null when it does not exist (any more). */
async function snapshot(w: WriteCtx, type: PostType, id: string, loaded: keyof typeof INCLUDES): Promise<Snapshot | null> {
  const row = await findAnyPost(w.db, id);
  if (!row) return null;
  const [post] = await adminPosts(w.db, [row], {
    siteUrl: w.site.url,
    engine: w.engine,
    include: INCLUDES[loaded][type],
    formats: new Set(['mobiledoc', 'html', 'plaintext']),
  });
  return post ?? null;
}

/** The post's own columns as the payload shows them, in the model's order (`previous` of a delete). */
const COLUMNS = [
  'id',
  'uuid',
  'title',
  'slug',
  'mobiledoc',
  'html',
  'comment_id',
  'feature_image',
  'featured',
  'status',
  'visibility',
  'created_at',
  'updated_at',
  'published_at',
  'custom_excerpt',
  'codeinjection_head',
  'codeinjection_foot',
  'custom_template',
  'canonical_url',
  'show_title_and_feature_image',
];

const ids = (items: unknown) => JSON.stringify(((items as { id: string }[] | undefined) ?? []).map((item) => item.id));

/**
 * The previous values of what this save changed, as Ghost sends `previous`: the model's changed columns,
 * and its tags or authors when they were replaced (not when a tag's own fields, such as its URL, moved).
 */
function changedKeys(before: Snapshot, after: Snapshot): Snapshot {
  const keys = Object.keys(before).filter((key) => COLUMNS.includes(key) || key === 'plaintext' || key === 'tags' || key === 'authors');
  const same = (key: string, was: unknown, is: unknown) =>
    key === 'tags' || key === 'authors' ? ids(was) === ids(is) : JSON.stringify(was) === JSON.stringify(is);
  return previousValues(before, after, { keys, same });
}

/** A deleted post's `previous`: its tags and authors (when it had any), then its columns (no computed fields). */
function asDeleted(before: Snapshot): Snapshot {
  const held = (key: string) =>
    key in before && !(Array.isArray(before[key]) && (before[key] as unknown[]).length === 0 && (key === 'tags' || key === 'authors'));
  return Object.fromEntries(['tags', 'authors', ...COLUMNS].filter(held).map((key) => [key, before[key]]));
}

function record(w: WriteCtx, type: PostType, id: string, suffix: PostEventSuffix, current: Snapshot, previous: Snapshot): void {
  const payload = { [type]: { current, previous } } as EventPayloads[`${PostType}.${PostEventSuffix}`];
  w.events.record(`${type}.${suffix}`, payload, { type, id });
}

/** Ids of the tags in a snapshot (`tags` is always included). */
const tagIds = (post: Snapshot) => ((post.tags as { id: string }[] | undefined) ?? []).map((tag) => tag.id);

/** One `tag.attached` per tag `current` has and `before` had not (every tag on an insert). */
function recordTagsAttached(w: WriteCtx, type: PostType, id: string, current: Snapshot, previous: Snapshot, before: string[]): void {
  for (const tag of tagIds(current)) if (!before.includes(tag)) record(w, type, id, 'tag.attached', current, previous);
}

/**
 * After an insert: one `tag.attached` per tag, `added`, then `published` or `scheduled` by the new status
 * (the order Ghost 5.130.6 records them in).
 */
export async function recordAdded(w: WriteCtx, type: PostType, row: Pick<PostRow, 'id' | 'status'>): Promise<void> {
  if (!(await listened(w, type))) return;
  const current = (await snapshot(w, type, row.id, 'inserted'))!;
  recordTagsAttached(w, type, row.id, current, {}, []);
  record(w, type, row.id, 'added', current, {});
  if (row.status === 'published') record(w, type, row.id, 'published', current, {});
  if (row.status === 'scheduled') record(w, type, row.id, 'scheduled', current, {});
}

/** Taken before an edit or delete changes the row: what `previous` is made from. */
export async function beforeChange(w: WriteCtx, type: PostType, id: string): Promise<Snapshot | null> {
  return (await listened(w, type)) ? snapshot(w, type, id, 'updated') : null;
}

type StatusOf = Pick<PostRow, 'status' | 'published_at'>;

/**
 * After an update: the tags detached and attached (Ghost writes relations before the row, so their events
 * come first), the status event Ghost's model fires for the transition, then `edited`.
 */
export async function recordEdited(w: WriteCtx, type: PostType, id: string, before: Snapshot | null, was: StatusOf, is: StatusOf): Promise<void> {
  if (!before) return;
  const current = (await snapshot(w, type, id, 'updated'))!;
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

/**
 * After a delete: one `tag.detached` per tag (Ghost detaches them first), `unpublished` when it was
 * published, then `deleted`; `current` is empty, as in Ghost.
 */
export function recordDeleted(w: WriteCtx, type: PostType, id: string, before: Snapshot | null, was: Pick<PostRow, 'status'>): void {
  if (!before) return;
  const previous = asDeleted(before);
  for (const _tag of tagIds(before)) record(w, type, id, 'tag.detached', {}, previous);
  if (was.status === 'published') record(w, type, id, 'unpublished', {}, previous);
  record(w, type, id, 'deleted', {}, previous);
}
