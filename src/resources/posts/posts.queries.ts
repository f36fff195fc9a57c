import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../../db/connect.js';
import { preparedQuery } from '../../db/prepared.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Database, PostMetaRow, PostRevisionRow, PostRow, TagRow, UserRow } from '../../db/schema.js';
import type { PostType } from './posts.schemas.js';
import { POST_FIELDS } from './posts.fields.js';
import { objectId } from '../../db/ids.js';
import { nextMeta } from './posts.model.js';
import type { PostChanges } from './posts.input.js';
import { columnsOf } from '../../browse/fields.js';
import { TAG_FIELDS } from '../tags/tags.fields.js';
import { USER_FIELDS } from '../users/users.fields.js';

/** A filter compiled to SQL over `posts` (the filter language plugs in here). */
export type PostWhere = (eb: ExpressionBuilder<Database, 'posts'>) => Expression<SqlBool>;

/** A post with what the presenters need; relations are present only when loaded. */
export interface PostRecord {
  row: PostRow;
  meta: PostMetaRow | null;
  tags?: TagRow[];
  authors?: UserRow[];
  revisions?: PostRevisionRow[];
}

export type PostKey = { id: string } | { slug: string } | { uuid: string };

/** A read by key takes the whole row (the Content API's reads: posts.content.queries.ts). */
const ALL_COLUMNS = Object.keys(POST_FIELDS) as (keyof PostRow)[];
const TAG_COLUMNS = columnsOf(TAG_FIELDS);
const USER_COLUMNS = columnsOf(USER_FIELDS);

export interface PostQuery {
  type: PostType;
  /** Admin API: the statuses listed on this endpoint. */
  statuses?: readonly string[];
  where?: PostWhere;
}

function base(db: ReadDb, query: PostQuery) {
  let select = db.selectFrom('posts').where('posts.type', '=', query.type);
  if (query.statuses) select = select.where('posts.status', 'in', query.statuses);
  if (query.where) select = select.where(query.where);
  return select;
}

export async function findPost(db: ReadDb, key: PostKey, query: PostQuery): Promise<PostRow | undefined> {
  let select = base(db, query).select(ALL_COLUMNS.map((column) => `posts.${column}` as const));
  if ('id' in key) select = select.where('posts.id', '=', key.id);
  else if ('slug' in key) select = select.where('posts.slug', '=', key.slug);
  else select = select.where('posts.uuid', '=', key.uuid);
  return select.executeTakeFirst();
}

/** The columns a save renders: large for a large post, and the save has them in hand. */
const CONTENT_COLUMNS = ['mobiledoc', 'lexical', 'html', 'plaintext'] as const;
const OTHER_COLUMNS = ALL_COLUMNS.filter((column) => !(CONTENT_COLUMNS as readonly string[]).includes(column));

/** What a save wrote to the content columns, with the `updated_at` it wrote (findSavedPost). */
export type SavedContent = Pick<PostRow, (typeof CONTENT_COLUMNS)[number] | 'updated_at'>;

export const savedContentOf = (row: PostRow): SavedContent => ({
  mobiledoc: row.mobiledoc,
  lexical: row.lexical,
  html: row.html,
  plaintext: row.plaintext,
  updated_at: row.updated_at,
});

/** Drivers write a lone surrogate (text cut inside a character pair) as U+FFFD: such a column reads back changed. */
const LONE_SURROGATE = /\p{Cs}/u;
const storedAsWritten = (saved: SavedContent) =>
  [saved.mobiledoc, saved.lexical, saved.html, saved.plaintext].every((text) => text === null || !LONE_SURROGATE.test(text));

/**
 * A post just saved, for the answer to its save: the content columns are the ones the save wrote, the others are
 * read. Reading a 12 MB post's content back made another copy of each column (tens of MB) while the save's were
 * still alive (issue 29). If another write changed the post in between (its `updated_at`, to the second every
 * engine keeps, is not the save's), the whole row is read.
 */
export async function findSavedPost(db: ReadDb, id: string, query: PostQuery, saved: SavedContent): Promise<PostRow | undefined> {
  const row = await base(db, query)
    .select(OTHER_COLUMNS.map((column) => `posts.${column}` as const))
    .where('posts.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const second = (at: Date | null) => (at === null ? null : Math.floor(at.getTime() / 1000));
  if (second(row.updated_at) !== second(saved.updated_at) || !storedAsWritten(saved)) return findPost(db, { id }, query);
  return { ...row, mobiledoc: saved.mobiledoc, lexical: saved.lexical, html: saved.html, plaintext: saved.plaintext };
}

/** Any post or page by id, whatever its type (edit/delete look up before checking the type). */
export async function findAnyPost(db: ReadDb, id: string): Promise<PostRow | undefined> {
  return db.selectFrom('posts').select(ALL_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function postIdsMatching(db: ReadDb, query: PostQuery): Promise<string[]> {
  return (await base(db, query).select('posts.id').execute()).map((row) => row.id);
}

/** The one `posts_meta` row of a post, or null (Ghost creates it only when a meta field has a value). */
export async function findPostMeta(db: ReadDb, postId: string): Promise<PostMetaRow | null> {
  return (await db.selectFrom('posts_meta').selectAll().where('post_id', '=', postId).executeTakeFirst()) ?? null;
}

// The relations of a page of posts: read for every posts list, so compiled once per page size. Tags and authors
// are read once each, beside their links: a page's posts share a few of them (15 posts, 45 links, ~20 tags), and
// reading a tag's two dozen columns once per link was most of the page's database time.
const metaByPostIds = preparedQuery((db, $: { postIds: string[] }) => db.selectFrom('posts_meta').selectAll().where('post_id', 'in', $.postIds));
const tagLinksByPostIds = preparedQuery((db, $: { postIds: string[] }) =>
  db.selectFrom('posts_tags').select(['post_id', 'tag_id as related']).where('post_id', 'in', $.postIds).orderBy('sort_order', 'asc').orderBy('id', 'asc'),
);
const tagsByPostIds = preparedQuery((db, $: { postIds: string[] }) =>
  db
    .selectFrom('tags')
    .select(TAG_COLUMNS)
    .where('id', 'in', (eb) => eb.selectFrom('posts_tags').select('tag_id').where('post_id', 'in', $.postIds)),
);
const authorLinksByPostIds = preparedQuery((db, $: { postIds: string[] }) =>
  db
    .selectFrom('posts_authors')
    .select(['post_id', 'author_id as related'])
    .where('post_id', 'in', $.postIds)
    .orderBy('sort_order', 'asc')
    .orderBy('id', 'asc'),
);
const authorsByPostIds = preparedQuery((db, $: { postIds: string[] }) =>
  db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('id', 'in', (eb) => eb.selectFrom('posts_authors').select('author_id').where('post_id', 'in', $.postIds)),
);

export async function metaOfPosts(db: ReadDb, postIds: readonly string[]): Promise<Map<string, PostMetaRow>> {
  if (postIds.length === 0) return new Map();
  const rows = await metaByPostIds(db, { postIds: [...postIds] });
  return new Map(rows.map((row) => [row.post_id, row]));
}

type ByPostIds<Row> = (db: ReadDb, values: { postIds: string[] }) => Promise<Row[]>;

/**
 * Each post's related rows (tags, authors) in link order, from its links and the rows they name. A link whose row
 * the other query did not see (linked or deleted in between, on a server engine where the two run side by side)
 * is left out, as a join read before it would.
 */
async function relatedOfPosts<Row extends { id: string }>(
  db: ReadDb,
  postIds: readonly string[],
  linksOf: ByPostIds<{ post_id: string; related: string }>,
  rowsOf: ByPostIds<unknown>,
): Promise<Map<string, Row[]>> {
  if (postIds.length === 0) return new Map();
  const values = { postIds: [...postIds] };
  const [links, rows] = await Promise.all([linksOf(db, values), rowsOf(db, values)]);
  const byId = new Map((rows as Row[]).map((row) => [row.id, row]));
  const out = new Map<string, Row[]>(postIds.map((id) => [id, []]));
  for (const link of links) {
    const row = byId.get(link.related);
    if (row) out.get(link.post_id)?.push(row);
  }
  return out;
}

/** Tags of several posts, each list in its `sort_order`. */
export const tagsOfPosts = (db: ReadDb, postIds: readonly string[]) => relatedOfPosts<TagRow>(db, postIds, tagLinksByPostIds, tagsByPostIds);

/** Authors of several posts, each list in its `sort_order` (the first is the primary author). */
export const authorsOfPosts = (db: ReadDb, postIds: readonly string[]) => relatedOfPosts<UserRow>(db, postIds, authorLinksByPostIds, authorsByPostIds);

export function latestRevision(db: ReadDb, postId: string): Promise<PostRevisionRow | undefined> {
  return db.selectFrom('post_revisions').selectAll().where('post_id', '=', postId).orderBy('created_at_ts', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

/**
 * `lexicalFromPost`: the revision's lexical is the post row's as this transaction wrote it, copied by the database
 * instead of being sent again (a 12 MB post's 14 MB of lexical went through the driver twice: issue 29).
 */
export async function insertRevision(db: Db, row: PostRevisionRow, { lexicalFromPost = false } = {}): Promise<void> {
  if (!lexicalFromPost) {
    await db.insertInto('post_revisions').values(row).execute();
    return;
  }
  await db
    .insertInto('post_revisions')
    .values({ ...row, lexical: (eb) => eb.selectFrom('posts').select('posts.lexical').where('posts.id', '=', row.post_id) })
    .execute();
}

/** Keeps a post's newest `keep` revisions. */
export async function trimRevisions(db: Db, postId: string, keep: number): Promise<void> {
  const stale = await db
    .selectFrom('post_revisions')
    .select('id')
    .where('post_id', '=', postId)
    .orderBy('created_at_ts', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1000)
    .execute();
  if (stale.length > 0)
    await db
      .deleteFrom('post_revisions')
      .where(
        'id',
        'in',
        stale.map((row) => row.id),
      )
      .execute();
}

/** Revisions of several posts, oldest first. */
export async function revisionsOfPosts(db: ReadDb, postIds: readonly string[]): Promise<Map<string, PostRevisionRow[]>> {
  const byPost = new Map<string, PostRevisionRow[]>(postIds.map((id) => [id, []]));
  if (postIds.length === 0) return byPost;
  const rows = await db.selectFrom('post_revisions').selectAll().where('post_id', 'in', postIds).orderBy('created_at_ts', 'asc').orderBy('id', 'asc').execute();
  for (const row of rows) byPost.get(row.post_id)?.push({ ...row, created_at_ts: Number(row.created_at_ts) });
  return byPost;
}

export interface Relations {
  tags: boolean;
  authors: boolean;
  revisions: boolean;
}

/** Rows with their meta and the asked-for relations, loaded side by side. */
export async function loadRecords(db: ReadDb, rows: PostRow[], relations: Relations): Promise<PostRecord[]> {
  const ids = rows.map((row) => row.id);
  const [meta, tags, authors, revisions] = await Promise.all([
    metaOfPosts(db, ids),
    relations.tags ? tagsOfPosts(db, ids) : null,
    relations.authors ? authorsOfPosts(db, ids) : null,
    relations.revisions ? revisionsOfPosts(db, ids) : null,
  ]);
  return rows.map((row) => ({
    row,
    meta: meta.get(row.id) ?? null,
    ...(tags ? { tags: tags.get(row.id)! } : {}),
    ...(authors ? { authors: authors.get(row.id)! } : {}),
    ...(revisions ? { revisions: revisions.get(row.id)! } : {}),
  }));
}

/** Slugs are de-duplicated across posts and pages of every status (Ghost looks them up without a type). */
export async function postSlugTaken(db: ReadDb, slug: string, exceptId?: string): Promise<boolean> {
  let select = db.selectFrom('posts').select('id').where('slug', '=', slug);
  if (exceptId) select = select.where('id', '!=', exceptId);
  return (await select.executeTakeFirst()) !== undefined;
}

/** Scheduled posts and pages due by `now`, oldest first; `type` leads the (type, status, published_at) index. */
export async function dueScheduledIds(db: ReadDb, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('posts')
    .select('id')
    .where('type', 'in', ['post', 'page'])
    .where('status', '=', 'scheduled')
    .where('published_at', '<=', now)
    .orderBy('published_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

// Writes: run inside `ctx.write`, on its transaction.

/** Locks the row for the rest of the transaction (a no-op update takes the row lock on every engine). */
export async function lockPost(db: Db, id: string): Promise<void> {
  await db
    .updateTable('posts')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', id)
    .execute();
}

/**
 * Locks a scheduled post while it is still scheduled (and due by `dueBy`, when given): true when this
 * transaction claimed it, false when another one published it (or an edit moved it) first.
 */
export async function claimScheduled(db: Db, id: string, dueBy: Date | null): Promise<boolean> {
  const claimed = await db
    .updateTable('posts')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', id)
    .where('status', '=', 'scheduled')
    .$if(dueBy !== null, (qb) => qb.where('published_at', '<=', dueBy))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

export async function insertPost(db: Db, row: PostRow): Promise<void> {
  await db.insertInto('posts').values(row).execute();
}

export async function updatePost(db: Db, id: string, values: Partial<PostRow>): Promise<void> {
  await db.updateTable('posts').set(values).where('id', '=', id).execute();
}

export async function insertPostMeta(db: Db, row: PostMetaRow): Promise<void> {
  await db.insertInto('posts_meta').values(row).execute();
}

/** Links a new post to these tiers, in this order. */
export async function insertPostTiers(db: Db, postId: string, tierIds: readonly string[]): Promise<void> {
  if (tierIds.length === 0) return;
  await db
    .insertInto('posts_products')
    .values(tierIds.map((product_id, sort_order) => ({ id: objectId(), post_id: postId, product_id, sort_order })))
    .execute();
}

/** Writes the post's meta row when a value changed; returns whether it did. */
export async function writeMeta(db: Db, postId: string, existing: PostMetaRow | null, changes: PostChanges['meta']): Promise<boolean> {
  const { values, changed, hasData } = nextMeta(existing, changes);
  if (!changed) return false;
  if (existing) await db.updateTable('posts_meta').set(values).where('id', '=', existing.id).execute();
  else if (hasData)
    await db
      .insertInto('posts_meta')
      .values({ id: objectId(), post_id: postId, frontmatter: null, ...values } as PostMetaRow)
      .execute();
  return true;
}

/** Removes posts with everything hanging off them. */
export async function deletePosts(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  for (const table of ['posts_tags', 'posts_authors', 'posts_meta', 'post_revisions', 'posts_products'] as const) {
    await db.deleteFrom(table).where('post_id', 'in', ids).execute();
  }
  await db.deleteFrom('posts').where('id', 'in', ids).execute();
}
