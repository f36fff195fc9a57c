import type { ReadDb } from '../../db/read-db.js';
import type { PostRow } from '../../db/schema.js';
import type { Ctx } from '../../ctx.js';
import { actorOf } from '../../auth/actor.js';
import { errors } from '../../errors.js';
import { checkPostPermission, type UnsafeAttrs } from './posts.permissions.js';
import type { PostChanges } from './posts.input.js';
import { authorIdsOf, resolveAuthors, resolveTags, sameList, tagIdsOf, writeAuthors, writeTags } from './posts.relations.js';
import { checkFeatureImageAlt, checkPostColumns } from './posts.rules.js';
import { recordRevision, revisionSnapshot } from './posts.revisions.js';
import { deletePosts, findAnyPost, findPostMeta, insertPost, lockPost, savedContentOf, updatePost, writeMeta, type SavedContent } from './posts.queries.js';
import { ownerUserId } from '../users/users.queries.js';
import { beforeChange, recordAdded, recordDeleted } from './posts.events.js';
import type { PostInput, PostType } from './posts.schemas.js';
import { writePostTiers } from './posts.tiers.js';
import { afterPostChange, publishWithNewsletter, siteChanged } from './posts.publish.js';
import { checkStatementSize, editedContent, newContent, prepareChanges, stillFits, type WriteOptions } from './posts.prepare.js';
import { buildEditedRow, buildNewRow, changedColumnsOf, checkCollision } from './posts.rows.js';
import type { StoredContent } from './posts.formats.js';
import { collectGarbageNow, LARGE_TASK_CHARS } from '../../workers/release.js';

/**
 * Add, edit and delete of posts and pages: the order of the steps (prepare, check, store, publish tail).
 * What each step does lives in its own file: `posts.prepare.ts` (content), `posts.rows.ts` (row changes),
 * `posts.transition.ts` (status), `posts.publish.ts` (the publish tail), `posts.queries.ts` (SQL).
 */
export interface WriteResult {
  id: string;
  /** X-Cache-Invalidate value, when the write changes what the site shows. */
  cacheInvalidate: string | null;
  /** The content columns as written, for the answer (findSavedPost). */
  saved: SavedContent;
}

/**
 * Who a post is by when the body names no authors, and whose revision a save is: the calling user; for an
 * integration, the site's Owner (as Ghost attributes them). Which user a write is *recorded* against
 * (`created_by`, …) is `ctx.actingUserId`.
 */
export const authorOfWrite = async (ctx: Ctx) => actorOf(ctx).user?.id ?? (await ownerUserId(ctx.db));

function unsafeOf(changes: PostChanges): UnsafeAttrs {
  return {
    ...(changes.post.status !== undefined ? { status: changes.post.status } : {}),
    ...(changes.post.visibility !== undefined ? { visibility: changes.post.visibility } : {}),
    ...(changes.authors !== undefined ? { authors: changes.authors } : {}),
  };
}

/**
 * Before a large post is written, the garbage its conversion and rendering left on this thread (its source
 * html, the copies that crossed from the worker threads) is collected: the database driver's copies of the
 * columns, twice their size on SQLite, would otherwise come on top of it (issue 29). Tens of milliseconds,
 * for posts of a million characters and more.
 */
function collectBeforeLargeWrite(content: { stored: StoredContent | null }): void {
  const { lexical, mobiledoc, html, plaintext } = content.stored ?? {};
  const chars = [lexical, mobiledoc, html, plaintext].reduce((sum, text) => sum + (text?.length ?? 0), 0);
  if (chars >= LARGE_TASK_CHARS) collectGarbageNow();
}

/** Creates a post or page (`POST /posts/`, `POST /pages/`). */
export async function addPost(ctx: Ctx, type: PostType, input: PostInput, options: WriteOptions): Promise<WriteResult> {
  const changes = await prepareChanges(ctx, type, input, 'add', options);
  const allowed = checkPostPermission(actorOf(ctx), 'add', unsafeOf(changes), null);
  if (allowed.dropTags) delete changes.tags;
  if (allowed.dropAuthors) delete changes.authors;
  const authorId = await authorOfWrite(ctx);
  const content = await newContent(ctx, changes);
  collectBeforeLargeWrite(content);

  return ctx.write(async (w) => {
    const trx = w.db;
    const authorIds = changes.authors ? await resolveAuthors(trx, changes.authors) : [authorId];
    const row = await buildNewRow(w, type, changes, content);
    const alt = changes.meta.feature_image_alt;
    checkPostColumns(row);
    await checkStatementSize(w, row);
    checkFeatureImageAlt(alt, row.mobiledoc ? 'posts_meta' : 'post_revisions');
    await insertPost(trx, row);
    if (changes.tags) await writeTags(trx, row.id, await resolveTags(w, changes.tags), true);
    await writeAuthors(trx, row.id, authorIds, true);
    if (changes.tiers) await writePostTiers(trx, row.id, changes.tiers);
    await writeMeta(trx, row.id, null, changes.meta);
    if (!row.mobiledoc) {
      const snapshot = revisionSnapshot(row, changes.meta, authorId, w.site.url);
      await recordRevision(trx, snapshot, { previousStatus: null, force: !!options.saveRevision, fresh: true }, w.clock);
    }
    await recordAdded(w, type, row);
    const cacheInvalidate = row.status === 'published' ? '/*' : null;
    siteChanged(w, cacheInvalidate);
    return { id: row.id, cacheInvalidate, saved: savedContentOf(row) };
  });
}

/** The stored post of this type, or Ghost's 404 (raised by the permission check, before any update). */
export async function existingPost(db: ReadDb, type: PostType, id: string): Promise<PostRow> {
  const row = await findAnyPost(db, id);
  if (!row || row.type !== type) throw errors.notFound('Post not found.');
  return row;
}

/** Edits a post or page (`PUT /posts/:id/`), with Ghost's collision check on `updated_at`. */
export async function editPost(ctx: Ctx, type: PostType, id: string, input: PostInput, options: WriteOptions): Promise<WriteResult> {
  const changes = await prepareChanges(ctx, type, input, 'edit', options);
  const authorId = await authorOfWrite(ctx);
  // Rendered before the transaction from the row as it is now (see posts.prepare.ts); worked out again
  // inside only when another write changed the row in between.
  const before = await findAnyPost(ctx.db, id);
  const prepared = before && before.type === type ? await editedContent(ctx, before, changes, options) : null;
  if (prepared) collectBeforeLargeWrite(prepared);
  return ctx.write(async (w) => {
    const trx = w.db;
    await lockPost(trx, id);
    const existing = await existingPost(trx, type, id);
    const existingAuthors = await authorIdsOf(trx, id);
    const allowed = checkPostPermission(actorOf(w), 'edit', unsafeOf(changes), { ...existing, authorIds: existingAuthors });
    if (allowed.dropTags) delete changes.tags;
    if (allowed.dropAuthors) delete changes.authors;
    const authorIds = changes.authors ? await resolveAuthors(trx, changes.authors) : existingAuthors;
    const existingMeta = await findPostMeta(trx, id);
    const before = await beforeChange(w, type, id);

    const content = prepared && stillFits(prepared, existing) ? prepared : await editedContent(w, existing, changes, options);
    const next = await buildEditedRow(w, existing, existingMeta, changes, content);
    const newsletter = await publishWithNewsletter(w, existing, next, options);
    const changedColumns = changedColumnsOf(next, existing);
    const existingTags = await tagIdsOf(trx, id);
    const tagIds = changes.tags ? await resolveTags(w, changes.tags) : existingTags;
    const tagsChanged = !sameList(tagIds, existingTags);
    const authorsChanged = !sameList(authorIds, existingAuthors);
    checkCollision(changes, existing, { columns: changedColumns, tags: tagsChanged, authors: authorsChanged });
    checkPostColumns(next);
    // Only changed columns are sent: a title edit of a large post is a small statement.
    await checkStatementSize(w, Object.fromEntries(changedColumns.map((key) => [key, next[key]])));
    checkFeatureImageAlt(changes.meta.feature_image_alt, 'posts_meta');

    if (changedColumns.length > 0) {
      const update: Partial<PostRow> = Object.fromEntries(changedColumns.map((key) => [key, next[key]]));
      // A reading time filled in for an older row is not an edit.
      if (changedColumns.some((key) => key !== 'reading_time')) Object.assign(update, { updated_at: w.clock.now(), updated_by: w.actingUserId });
      await updatePost(trx, id, update);
      Object.assign(next, update);
    }
    if (tagsChanged) await writeTags(trx, id, tagIds);
    if (authorsChanged) await writeAuthors(trx, id, authorIds);
    // Ghost's relation plugin rewrites the tiers whenever the body names them; it is not counted as a change.
    if (changes.tiers) await writePostTiers(trx, id, changes.tiers);
    const metaChanged = await writeMeta(trx, id, existingMeta, changes.meta);
    const meta = { ...existingMeta, ...changes.meta };
    const wasChanged = changedColumns.some((key) => key !== 'reading_time') || tagsChanged || authorsChanged || metaChanged;
    const saveRevision = !!options.saveRevision;
    const cacheInvalidate = await afterPostChange(w, { type, existing, next, meta, newsletter, authorId, saveRevision, wasChanged, before });
    return { id, cacheInvalidate, saved: savedContentOf(next) };
  });
}

/** `DELETE /posts/:id/`. */
export async function destroyPost(ctx: Ctx, type: PostType, id: string): Promise<void> {
  await ctx.write(async (w) => {
    const trx = w.db;
    await lockPost(trx, id);
    const existing = await existingPost(trx, type, id);
    checkPostPermission(actorOf(ctx), 'destroy', {}, { ...existing, authorIds: await authorIdsOf(trx, id) });
    const before = await beforeChange(w, type, id);
    await deletePosts(trx, [id]);
    recordDeleted(w, type, id, before, existing);
    // The delete route always answers with `X-Cache-Invalidate: /*`.
    siteChanged(w, '/*');
  });
}
