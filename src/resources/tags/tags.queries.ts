import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database, TagRow } from '../../db/schema.js';

/** A filter compiled to SQL for the tags table (the filter language plugs in here). */
export type TagWhere = (eb: ExpressionBuilder<Database, 'tags'>) => Expression<SqlBool>;

export function findTag(db: Db, by: { id: string } | { slug: string }): Promise<TagRow | undefined> {
  const query = db.selectFrom('tags').selectAll();
  return ('id' in by ? query.where('id', '=', by.id) : query.where('slug', '=', by.slug)).executeTakeFirst();
}

/** A Content API tag: only tags with a published post exist there. */
export function findPublicTag(db: Db, by: { id: string } | { slug: string }): Promise<TagRow | undefined> {
  const query = db.selectFrom('tags').selectAll().where(tagHasPublishedPost);
  return ('id' in by ? query.where('id', '=', by.id) : query.where('slug', '=', by.slug)).executeTakeFirst();
}

/**
 * A tag is public once attached to at least one published post or page: the Content API lists and reads
 * only those, and only their `url` is routable.
 */
export function tagHasPublishedPost(eb: ExpressionBuilder<Database, 'tags'>): Expression<SqlBool> {
  return eb.exists(
    eb.selectFrom('posts_tags')
      .innerJoin('posts', 'posts.id', 'posts_tags.post_id')
      .select('posts_tags.id')
      .whereRef('posts_tags.tag_id', '=', 'tags.id')
      .where('posts.status', '=', 'published'),
  );
}

/**
 * `count.posts` per tag. The Admin API counts every post and page; the Content API counts published
 * posts only (Ghost's `countRelations`).
 */
export async function postCountsOfTags(db: Db, tagIds: readonly string[], publicOnly: boolean): Promise<Map<string, number>> {
  const counts = new Map<string, number>(tagIds.map((id) => [id, 0]));
  if (tagIds.length === 0) return counts;
  let query = db
    .selectFrom('posts_tags')
    .innerJoin('posts', 'posts.id', 'posts_tags.post_id')
    .select(['posts_tags.tag_id', (eb) => eb.fn.count<number>('posts.id').as('total')])
    .where('posts_tags.tag_id', 'in', tagIds)
    .groupBy('posts_tags.tag_id');
  if (publicOnly) query = query.where('posts.type', '=', 'post').where('posts.status', '=', 'published');
  for (const row of await query.execute()) counts.set(row.tag_id, Number(row.total));
  return counts;
}

/** Which of these tags are attached to a published post or page (their `url` is then routable). */
export async function tagsWithPublishedPosts(db: Db, tagIds: readonly string[]): Promise<Set<string>> {
  if (tagIds.length === 0) return new Set();
  const rows = await db.selectFrom('tags').select('tags.id').where('tags.id', 'in', tagIds).where(tagHasPublishedPost).execute();
  return new Set(rows.map((row) => row.id));
}

export async function slugTaken(db: Db, slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('tags').select('id').where('slug', '=', slug);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

