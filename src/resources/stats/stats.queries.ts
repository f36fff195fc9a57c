import type { ReadDb } from '../../db/read-db.js';

export interface TopPostRow {
  id: string;
  title: string;
  published_at: Date | null;
  feature_image: string | null;
  status: string;
}

/** The newest published posts and pages, as Ghost lists them when it has no view counts to rank by. */
export function newestPublished(db: ReadDb, limit: number): Promise<TopPostRow[]> {
  return db
    .selectFrom('posts')
    .select(['id', 'title', 'published_at', 'feature_image', 'status'])
    .where('status', '=', 'published')
    .where('published_at', 'is not', null)
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Author names of each post, in authorship order. */
export async function authorNames(db: ReadDb, postIds: readonly string[]): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  if (postIds.length === 0) return names;
  const rows = await db
    .selectFrom('posts_authors')
    .innerJoin('users', 'users.id', 'posts_authors.author_id')
    .select(['posts_authors.post_id', 'users.name'])
    .where('posts_authors.post_id', 'in', postIds)
    .orderBy('posts_authors.post_id')
    .orderBy('posts_authors.sort_order')
    .execute();
  for (const row of rows) names.set(row.post_id, [...(names.get(row.post_id) ?? []), row.name]);
  return names;
}

export async function postExists(db: ReadDb, id: string): Promise<boolean> {
  return (await db.selectFrom('posts').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
