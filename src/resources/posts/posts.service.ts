import type { Db } from '../../db/connect.js';
import type { PostMetaRow, PostRow } from '../../db/schema.js';
import type { Ctx, WriteCtx } from '../../ctx.js';
import { actorOf } from '../../auth/actor.js';
import { errors } from '../../errors.js';
import { objectId, uuid } from '../../db/ids.js';
import { isoDate } from '../../content/dates.js';
import { generateSlug } from '../../content/slugs.js';
import { checkPostPermission, type UnsafeAttrs } from './posts.permissions.js';
import { postChanges, type PostChanges } from './posts.input.js';
import {
  lexicalFromHtml,
  mobiledocFromHtml,
  renderForStorage,
  renderedMobiledoc,
  resolveSources,
  sourcesForStorage,
  type ContentState,
  type StoredContent,
} from './posts.formats.js';
import { authorIdsOf, resolveAuthors, resolveTags, sameList, tagIdsOf, writeAuthors, writeTags } from './posts.relations.js';
import { cleanTitle, editInvalidation, effectiveStatus, nextMeta, sameTime, storedVisibility } from './posts.model.js';
import { checkFeatureImageAlt, checkPostColumns, checkSchedule, checkStatusChange } from './posts.rules.js';
import { recordRevision } from './posts.revisions.js';
import { findAnyPost, postSlugTaken } from './posts.queries.js';
import { ownerUserId } from '../users/users.queries.js';
import { statementLimit } from '../../db/statement-limit.js';
import { htmlToStorage, lexicalFromStorage, mobiledocFromStorage, toStorageUrl } from '../../content/ghost-url.js';
import { readingTimeOffThread } from '../../content/off-thread.js';
import { beforeChange, recordAdded, recordDeleted, recordEdited } from './posts.events.js';
import type { PostInput, PostType } from './posts.schemas.js';
import { applyDefaultVisibility, writePostTiers } from './posts.tiers.js';
import { publishWithNewsletter, sendsEmailNow } from './posts.publish.js';
import { checkEmailSegment, postHasEmail, recordPostEmail } from './posts.email.js';

export interface WriteOptions {
  source: 'html' | null;
  forceRerender?: boolean;
  saveRevision?: boolean;
  convertToLexical?: boolean;
  newsletter?: string;
  emailSegment?: string;
}

export interface WriteResult {
  id: string;
  /** X-Cache-Invalidate value, when the write changes what the site shows. */
  cacheInvalidate: string | null;
}

const URL_COLUMNS = ['feature_image'] as const;
const HTML_COLUMNS = ['custom_excerpt', 'codeinjection_head', 'codeinjection_foot'] as const;
const META_URL_COLUMNS = ['og_image', 'twitter_image'] as const;
/** Changes that do not count as someone else's edit (bookshelf-collision's ignore list). */
const NOT_COLLIDING = new Set(['created_at', 'updated_at', 'id', 'published_by', 'updated_by', 'html', 'plaintext', 'reading_time']);

/** Stored next to the html so reads never count words; counted on the worker pool. */
const readingTimeOf = async (row: Pick<PostRow, 'html' | 'feature_image'>) => (row.html ? await readingTimeOffThread(row) : null);

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

/** Site URLs in writable columns are stored as `__GHOST_URL__/…`. */
function toStorage(changes: PostChanges, siteUrl: string): void {
  const post = changes.post as Record<string, unknown>;
  const meta = changes.meta as Record<string, unknown>;
  for (const key of URL_COLUMNS) if (typeof post[key] === 'string') post[key] = toStorageUrl(post[key] as string, siteUrl);
  // canonical_url keeps its protocol: an https canonical of an http site stays absolute.
  if (typeof post.canonical_url === 'string') post.canonical_url = toStorageUrl(post.canonical_url, siteUrl, { ignoreProtocol: false });
  for (const key of HTML_COLUMNS) if (typeof post[key] === 'string') post[key] = htmlToStorage(post[key] as string, siteUrl);
  for (const key of META_URL_COLUMNS) if (typeof meta[key] === 'string') meta[key] = toStorageUrl(meta[key] as string, siteUrl);
  if (typeof post.visibility === 'string') post.visibility = storedVisibility(post.visibility);
}

/** Steps shared by add and edit before the transaction: input, e-mail segment, html conversion. */
async function prepare(ctx: Ctx, type: PostType, input: PostInput, mode: 'add' | 'edit', options: WriteOptions) {
  const changes = postChanges(type, input);
  if (mode === 'add') await applyDefaultVisibility(ctx.db, changes);
  // Ghost's posts service checks the segment before anything else, only when both options are given.
  if (mode === 'edit' && options.newsletter && options.emailSegment && options.emailSegment !== 'all') checkEmailSegment(ctx.engine, options.emailSegment);
  if (options.source === 'html' && changes.html) {
    changes.post.lexical = await lexicalFromHtml(changes.html);
    changes.post.mobiledoc = null;
  }
  toStorage(changes, ctx.site.url);
  return changes;
}

export function uniqueSlug(db: Db, base: string, exceptId?: string): Promise<string> {
  return generateSlug(base, { kind: 'post', taken: (candidate) => postSlugTaken(db, candidate, exceptId) });
}

async function writeMeta(db: Db, postId: string, existing: PostMetaRow | null, changes: PostChanges): Promise<boolean> {
  const { values, changed, hasData } = nextMeta(existing, changes.meta);
  if (!changed) return false;
  if (existing) await db.updateTable('posts_meta').set(values).where('id', '=', existing.id).execute();
  else if (hasData)
    await db
      .insertInto('posts_meta')
      .values({ id: objectId(), post_id: postId, frontmatter: null, ...values } as PostMetaRow)
      .execute();
  return true;
}

/** Creates a post or page (`POST /posts/`, `POST /pages/`). */
export async function addPost(ctx: Ctx, type: PostType, input: PostInput, options: WriteOptions): Promise<WriteResult> {
  const changes = await prepare(ctx, type, input, 'add', options);
  const allowed = checkPostPermission(actorOf(ctx), 'add', unsafeOf(changes), null);
  if (allowed.dropTags) delete changes.tags;
  if (allowed.dropAuthors) delete changes.authors;
  const authorId = await authorOfWrite(ctx);
  // Rendered before the transaction: a large post renders for seconds, and an open transaction would hold
  // every other write (and on SQLite every query) back that long.
  const content = await newContent(ctx, changes);

  return ctx.write(async (w) => {
    const trx = w.db;
    const authorIds = changes.authors ? await resolveAuthors(trx, changes.authors) : [authorId];
    const row = await buildNewRow(w, type, changes, content);
    const alt = changes.meta.feature_image_alt;
    checkPostColumns(row);
    await checkStatementSize(w, row);
    checkFeatureImageAlt(alt, row.mobiledoc ? 'posts_meta' : 'post_revisions');
    await trx.insertInto('posts').values(row).execute();
    if (changes.tags) await writeTags(trx, row.id, await resolveTags(w, changes.tags), true);
    await writeAuthors(trx, row.id, authorIds, true);
    if (changes.tiers) await writePostTiers(trx, row.id, changes.tiers);
    await writeMeta(trx, row.id, null, changes);
    if (!row.mobiledoc)
      await recordRevision(
        trx,
        snapshot(row, changes.meta, authorId, w.site.url),
        { previousStatus: null, force: !!options.saveRevision, fresh: true },
        w.clock,
      );
    await recordAdded(w, type, row);
    const cacheInvalidate = row.status === 'published' ? '/*' : null;
    siteChanged(w, cacheInvalidate);
    return { id: row.id, cacheInvalidate };
  });
}

/**
 * Refuses a post the database cannot take in one statement (MySQL/MariaDB's `max_allowed_packet`) before
 * sending it: the server would drop the connection and the request would end in an opaque 500. The driver
 * escapes values into the statement (quotes in lexical JSON double up), hence the allowance.
 */
async function checkStatementSize(w: WriteCtx, row: Partial<Pick<PostRow, 'lexical' | 'mobiledoc' | 'html' | 'plaintext'>>): Promise<void> {
  const limit = await statementLimit(w.db, w.engine);
  if (limit === null) return;
  const bytes = [row.lexical, row.mobiledoc, row.html, row.plaintext].reduce((sum, text) => sum + Buffer.byteLength(text ?? ''), 0);
  if (bytes * 1.25 + 64 * 1024 <= limit) return;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  throw errors.tooLarge({
    context: `The post's content is ${mb(bytes)} once rendered; the database takes at most ${mb(limit)} in one statement (max_allowed_packet).`,
  });
}

/** The content columns of a write, rendered, with the reading time of the html they hold. */
interface RenderedContent {
  stored: StoredContent;
  readingTime: number | null;
}

async function newContent(ctx: Ctx, changes: PostChanges): Promise<RenderedContent> {
  const p = changes.post;
  const sources = resolveSources(contentFromStorage(p.mobiledoc ?? null, p.lexical ?? null, ctx.site.url), null);
  const stored = await renderForStorage(sources, ctx.site.url);
  return { stored, readingTime: await readingTimeOf({ html: stored.html, feature_image: p.feature_image ?? null }) };
}

async function buildNewRow(ctx: WriteCtx, type: PostType, changes: PostChanges, { stored, readingTime }: RenderedContent): Promise<PostRow> {
  const { db, actingUserId: userId } = ctx;
  const at = ctx.clock.now();
  const p = changes.post;
  let publishedAt = p.published_at ?? null;
  checkSchedule(p.status ?? 'draft', publishedAt, publishedAt !== null, at);
  const title = cleanTitle(p.title);
  const status = effectiveStatus(p.status ?? 'draft', null, changes.meta.email_only ?? false);
  const publishing = status === 'published' || status === 'sent';
  if (publishing && !publishedAt) publishedAt = at;
  const id = objectId();
  return {
    id,
    uuid: uuid(),
    title,
    slug: await uniqueSlug(db, p.slug || title),
    ...stored,
    comment_id: id,
    feature_image: p.feature_image ?? null,
    featured: p.featured ?? false,
    type,
    status,
    locale: p.locale ?? null,
    visibility: p.visibility ?? 'public',
    email_recipient_filter: 'all',
    created_at: at,
    created_by: userId,
    updated_at: at,
    updated_by: userId,
    published_at: publishedAt,
    published_by: publishing ? userId : null,
    custom_excerpt: p.custom_excerpt ?? null,
    codeinjection_head: p.codeinjection_head ?? null,
    codeinjection_foot: p.codeinjection_foot ?? null,
    custom_template: p.custom_template ?? null,
    canonical_url: p.canonical_url ?? null,
    newsletter_id: null,
    show_title_and_feature_image: p.show_title_and_feature_image ?? true,
    reading_time: readingTime,
  };
}

/** Stored source columns back in the absolute form the renderers read. */
function contentFromStorage(mobiledoc: string | null, lexical: string | null, siteUrl: string): ContentState {
  return {
    mobiledoc: mobiledoc ? mobiledocFromStorage(mobiledoc, siteUrl) : null,
    lexical: lexical ? lexicalFromStorage(lexical, siteUrl) : null,
  };
}

export function snapshot(row: PostRow, meta: Partial<PostMetaRow>, authorId: string, siteUrl: string) {
  return {
    postId: row.id,
    lexical: row.lexical ? lexicalFromStorage(row.lexical, siteUrl) : null,
    title: row.title,
    featureImage: row.feature_image,
    featureImageAlt: meta.feature_image_alt ?? null,
    featureImageCaption: meta.feature_image_caption ?? null,
    customExcerpt: row.custom_excerpt,
    status: row.status,
    authorId,
  };
}

/** Locks the row for the rest of the transaction (a no-op update takes the row lock on every engine). */
async function lockPost(db: Db, id: string): Promise<void> {
  await db
    .updateTable('posts')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', id)
    .execute();
}

/** The stored post of this type, or Ghost's 404 (raised by the permission check, before any update). */
export async function existingPost(db: Db, type: PostType, id: string): Promise<PostRow> {
  const row = await findAnyPost(db, id);
  if (!row || row.type !== type) throw errors.notFound('Post not found.');
  return row;
}

/** Edits a post or page (`PUT /posts/:id/`), with Ghost's collision check on `updated_at`. */
export async function editPost(ctx: Ctx, type: PostType, id: string, input: PostInput, options: WriteOptions): Promise<WriteResult> {
  const changes = await prepare(ctx, type, input, 'edit', options);
  const authorId = await authorOfWrite(ctx);
  // Rendered before the transaction from the row as it is now (see addPost); worked out again inside only
  // when another write changed the row in between.
  const before = await findAnyPost(ctx.db, id);
  const prepared = before && before.type === type ? await editedContent(ctx, before, changes, options) : null;
  return ctx.write(async (w) => {
    const trx = w.db;
    await lockPost(trx, id);
    const existing = await existingPost(trx, type, id);
    const existingAuthors = await authorIdsOf(trx, id);
    const allowed = checkPostPermission(actorOf(w), 'edit', unsafeOf(changes), { ...existing, authorIds: existingAuthors });
    if (allowed.dropTags) delete changes.tags;
    if (allowed.dropAuthors) delete changes.authors;
    const authorIds = changes.authors ? await resolveAuthors(trx, changes.authors) : existingAuthors;
    const existingMeta = (await trx.selectFrom('posts_meta').selectAll().where('post_id', '=', id).executeTakeFirst()) ?? null;
    const before = await beforeChange(w, type, id);

    const content = prepared && stillFits(prepared, existing) ? prepared : await editedContent(w, existing, changes, options);
    const next = await buildEditedRow(w, existing, existingMeta, changes, content);
    const newsletter = await publishWithNewsletter(w, existing, next, options);
    const changedColumns = (Object.keys(next) as (keyof PostRow)[]).filter((key) => !equalValue(next[key], existing[key]));
    const existingTags = await tagIdsOf(trx, id);
    const tagIds = changes.tags ? await resolveTags(w, changes.tags) : existingTags;
    const tagsChanged = !sameList(tagIds, existingTags);
    const authorsChanged = !sameList(authorIds, existingAuthors);

    const changedFields = [
      ...changedColumns.filter((key) => !NOT_COLLIDING.has(key)),
      ...(tagsChanged ? ['tags'] : []),
      ...(authorsChanged ? ['authors'] : []),
    ];
    if (changedFields.length > 0 && changes.updatedAt && new Date(changes.updatedAt).getTime() !== existing.updated_at?.getTime()) {
      throw errors.collision({
        message: 'Saving failed! Someone else is editing this post.',
        code: 'UPDATE_COLLISION',
        details: { changedFields, clientUpdatedAt: changes.updatedAt, serverUpdatedAt: isoDate(existing.updated_at) },
      });
    }
    checkPostColumns(next);
    // Only changed columns are sent: a title edit of a large post is a small statement.
    await checkStatementSize(w, Object.fromEntries(changedColumns.map((key) => [key, next[key]])));
    checkFeatureImageAlt(changes.meta.feature_image_alt, 'posts_meta');

    if (changedColumns.length > 0) {
      const update: Partial<PostRow> = Object.fromEntries(changedColumns.map((key) => [key, next[key]]));
      // A reading time filled in for an older row is not an edit.
      if (changedColumns.some((key) => key !== 'reading_time')) Object.assign(update, { updated_at: w.clock.now(), updated_by: w.actingUserId });
      await trx.updateTable('posts').set(update).where('id', '=', id).execute();
      Object.assign(next, update);
    }
    if (tagsChanged) await writeTags(trx, id, tagIds);
    if (authorsChanged) await writeAuthors(trx, id, authorIds);
    // Ghost's relation plugin rewrites the tiers whenever the body names them; it is not counted as a change.
    if (changes.tiers) await writePostTiers(trx, id, changes.tiers);
    const metaChanged = await writeMeta(trx, id, existingMeta, changes);
    const meta = { ...existingMeta, ...changes.meta };
    const wasChangedNow = changedColumns.some((key) => key !== 'reading_time') || tagsChanged || authorsChanged || metaChanged;
    if (next.newsletter_id && wasChangedNow && sendsEmailNow(existing.status, next.status) && !(await postHasEmail(trx, id))) {
      await recordPostEmail(
        w,
        next,
        meta,
        newsletter ?? (await w.db.selectFrom('newsletters').selectAll().where('id', '=', next.newsletter_id).executeTakeFirstOrThrow()),
      );
    }
    if (!next.mobiledoc) {
      await recordRevision(trx, snapshot(next, meta, authorId, w.site.url), { previousStatus: existing.status, force: !!options.saveRevision }, w.clock);
    }
    if (wasChangedNow) await recordEdited(w, type, id, before, existing, next);
    const cacheInvalidate = editInvalidation(w.site.url, existing.status, next, wasChangedNow);
    siteChanged(w, cacheInvalidate);
    return { id, cacheInvalidate };
  });
}

const equalValue = (a: unknown, b: unknown) => (a instanceof Date || b instanceof Date ? sameTime(a as Date | null, b as Date | null) : a === b);

/**
 * The content columns an edit leads to: `stored` is null when the source did not change (nothing is
 * rendered again). `basedOn` is the stored row it was worked out from; `error` a refusal to raise when the
 * edit reaches the point where Ghost renders (after the permission and not-found checks).
 */
interface EditedContent {
  basedOn: Pick<PostRow, 'mobiledoc' | 'lexical' | 'html' | 'feature_image' | 'reading_time'>;
  stored: StoredContent | null;
  readingTime: number | null;
  error?: unknown;
}

async function editedContent(ctx: Ctx, existing: PostRow, changes: PostChanges, options: WriteOptions): Promise<EditedContent> {
  const siteUrl = ctx.site.url;
  const p = changes.post;
  const basedOn = {
    mobiledoc: existing.mobiledoc,
    lexical: existing.lexical,
    html: existing.html,
    feature_image: existing.feature_image,
    reading_time: existing.reading_time,
  };
  try {
    const previous = contentFromStorage(existing.mobiledoc, existing.lexical, siteUrl);
    const requested = contentFromStorage(
      'mobiledoc' in p ? (p.mobiledoc ?? null) : existing.mobiledoc,
      'lexical' in p ? (p.lexical ?? null) : existing.lexical,
      siteUrl,
    );
    // `?source=html` on a mobiledoc post keeps it mobiledoc, as Ghost does (the html converted to mobiledoc).
    if (options.source === 'html' && changes.html && existing.mobiledoc) requested.mobiledoc = await mobiledocFromHtml(changes.html);
    let sources = resolveSources(requested, previous);
    if (options.convertToLexical && sources.mobiledoc) {
      // Without Ghost's kg-converters the conversion goes through the rendered html.
      sources = { mobiledoc: null, lexical: await lexicalFromHtml(await renderedMobiledoc(sources.mobiledoc, siteUrl)) };
    }
    const storedSources = sourcesForStorage(sources, siteUrl);
    const rerender = storedSources.mobiledoc !== existing.mobiledoc || storedSources.lexical !== existing.lexical || !!options.forceRerender;
    const stored = rerender ? await renderForStorage(sources, siteUrl) : null;
    const html = stored ? stored.html : existing.html;
    const featureImage = 'feature_image' in p ? (p.feature_image ?? null) : existing.feature_image;
    // Reading time depends on the html and on whether there is a feature image; otherwise the stored one holds.
    const same = !stored && !featureImage === !existing.feature_image && existing.reading_time !== null;
    const readingTime = same ? existing.reading_time : await readingTimeOf({ html, feature_image: featureImage });
    return { basedOn, stored, readingTime };
  } catch (error) {
    return { basedOn, stored: null, readingTime: null, error };
  }
}

/** Whether content worked out before the transaction still fits the row the transaction locked. */
const stillFits = (content: EditedContent, existing: PostRow) =>
  (Object.keys(content.basedOn) as (keyof EditedContent['basedOn'])[]).every((key) => equalValue(content.basedOn[key], existing[key]));

async function buildEditedRow(
  ctx: WriteCtx,
  existing: PostRow,
  existingMeta: PostMetaRow | null,
  changes: PostChanges,
  content: EditedContent,
): Promise<PostRow> {
  const { db, actingUserId: userId } = ctx;
  const p = changes.post;
  const next: PostRow = { ...existing };
  for (const key of Object.keys(p) as (keyof typeof p)[]) (next as unknown as Record<string, unknown>)[key] = p[key];

  if (content.error !== undefined) throw content.error;
  if (content.stored) Object.assign(next, content.stored);
  next.reading_time = content.readingTime;

  checkStatusChange(existing.status, next.status);
  checkSchedule(next.status, next.published_at, !sameTime(next.published_at, existing.published_at), ctx.clock.now());
  if ('title' in p) next.title = cleanTitle(p.title);
  const emailOnly = changes.meta.email_only ?? existingMeta?.email_only ?? false;
  next.status = effectiveStatus(next.status, existing.status, emailOnly);
  const publishing = next.status === 'published' || next.status === 'sent';
  if (publishing && !next.published_at) next.published_at = ctx.clock.now();
  if (publishing && next.status !== existing.status) next.published_by = userId;
  // Back to draft: the e-mail settings are forgotten unless an email already went out.
  if (next.status === 'draft' && existing.status !== 'draft' && !(await postHasEmail(db, existing.id))) {
    next.email_recipient_filter = 'all';
    next.newsletter_id = null;
  }
  if ('slug' in p && (p.slug !== existing.slug || !p.slug)) next.slug = await uniqueSlug(db, p.slug || next.title, existing.id);
  return next;
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

/** Ghost fires `site.changed` for every answer that invalidates the whole site's cache. */
export function siteChanged(w: WriteCtx, cacheInvalidate: string | null): void {
  if (cacheInvalidate === '/*') w.events.record('site.changed', {});
}

/** Removes posts with everything hanging off them. */
export async function deletePosts(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  for (const table of ['posts_tags', 'posts_authors', 'posts_meta', 'post_revisions', 'posts_products'] as const) {
    await db.deleteFrom(table).where('post_id', 'in', ids).execute();
  }
  await db.deleteFrom('posts').where('id', 'in', ids).execute();
}
