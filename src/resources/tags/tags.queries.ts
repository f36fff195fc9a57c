import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Api } from '../../browse/browse.js';
import type { Db } from '../../db/connect.js';
import { preparedQuery } from '../../db/prepared.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Database, TagRow } from '../../db/schema.js';
import { columnsOf } from '../../browse/fields.js';
import { TAG_FIELDS } from './tags.fields.js';

const TAG_COLUMNS = columnsOf(TAG_FIELDS);

export function findTag(db: ReadDb, by: { id: string } | { slug: string }): Promise<TagRow | undefined> {
  const query = db.selectFrom('tags').select(TAG_COLUMNS);
  return ('id' in by ? query.where('id', '=', by.id) : query.where('slug', '=', by.slug)).executeTakeFirst();
}

/** A Content API tag: only tags with a published post exist there. */
export function findPublicTag(db: ReadDb, by: { id: string } | { slug: string }): Promise<TagRow | undefined> {
  const query = db.selectFrom('tags').select(TAG_COLUMNS).where(tagHasPublishedPost);
  return ('id' in by ? query.where('id', '=', by.id) : query.where('slug', '=', by.slug)).executeTakeFirst();
}

/**
 * A tag is public once attached to at least one published post or page: the Content API lists and reads
 * only those, and only their `url` is routable.
 */
export function tagHasPublishedPost(eb: ExpressionBuilder<Database, 'tags'>): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('posts_tags')
      .innerJoin('posts', 'posts.id', 'posts_tags.post_id')
      .select('posts_tags.id')
      .whereRef('posts_tags.tag_id', '=', 'tags.id')
      .where('posts.status', '=', 'published'),
  );
}

/**
 * A tag's `count.posts` (Ghost's `countRelations`): the Admin API counts every post and page, the Content
 * API published posts only. A correlated subquery, so browse can order by it and a page reads it in one query.
 */
export function tagPostCount(eb: ExpressionBuilder<Database, 'tags'>, api: Api) {
  let count = eb.selectFrom('posts').innerJoin('posts_tags', 'posts_tags.post_id', 'posts.id').whereRef('posts_tags.tag_id', '=', 'tags.id');
  if (api === 'content') count = count.where('posts.type', '=', 'post').where('posts.status', '=', 'published');
  return count.select(sql<number>`count(posts.id)`.as('n'));
}

/**
 * `count.posts` of each of these tags (the same counts as tagPostCount), in one grouped query that reads the
 * posts once: looking a post up per link instead made SQLite read each post's whole row (its type and status
 * come after the html) — most of a cold `tags/?include=count.posts` answer's time.
 */
const tagPostCounts = (api: Api) =>
  preparedQuery((db, $: { tagIds: string[] }) => {
    let posts = db.selectFrom('posts').select('posts.id');
    if (api === 'content') posts = posts.where('posts.type', '=', 'post').where('posts.status', '=', 'published');
    return db
      .selectFrom('posts_tags')
      .select(['posts_tags.tag_id as id', sql<number>`count(*)`.as('n')])
      .where('posts_tags.tag_id', 'in', $.tagIds)
      .where('posts_tags.post_id', 'in', posts)
      .groupBy('posts_tags.tag_id');
  });
const TAG_POST_COUNTS = { admin: tagPostCounts('admin'), content: tagPostCounts('content') };

export async function postCountsOfTags(db: ReadDb, tagIds: readonly string[], api: Api): Promise<Map<string, number>> {
  if (tagIds.length === 0) return new Map();
  const rows = await TAG_POST_COUNTS[api](db, { tagIds: [...tagIds] });
  return new Map(rows.map((row) => [row.id, Number(row.n)]));
}

/** Which of these tags are attached to a published post or page (their `url` is then routable). */
export async function tagsWithPublishedPosts(db: ReadDb, tagIds: readonly string[]): Promise<Set<string>> {
  if (tagIds.length === 0) return new Set();
  const rows = await db.selectFrom('tags').select('tags.id').where('tags.id', 'in', tagIds).where(tagHasPublishedPost).execute();
  return new Set(rows.map((row) => row.id));
}

export async function slugTaken(db: ReadDb, slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('tags').select('id').where('slug', '=', slug);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertTagRow(db: Db, row: TagRow): Promise<void> {
  await db.insertInto('tags').values(row).execute();
}

export async function updateTagRow(db: Db, id: string, changes: Record<string, unknown>): Promise<void> {
  await db.updateTable('tags').set(changes).where('id', '=', id).execute();
}

/** Removes a tag and takes it off its posts. */
export async function deleteTagRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('posts_tags').where('tag_id', '=', id).execute();
  await db.deleteFrom('tags').where('id', '=', id).execute();
}
