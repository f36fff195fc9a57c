import type { Db } from '../../db/connect.js';
import type { UserRow } from '../../db/schema.js';
import { authorHasPublishedPost } from '../users/users.queries.js';

/** A Content API author: only users with a published post exist there. */
export function findPublicAuthor(db: Db, by: { id: string } | { slug: string }): Promise<UserRow | undefined> {
  const query = db.selectFrom('users').where(authorHasPublishedPost).selectAll('users');
  return ('id' in by ? query.where('users.id', '=', by.id) : query.where('users.slug', '=', by.slug)).executeTakeFirst();
}

/** `count.posts` on the Content API: published posts (not pages) per author. */
export async function publishedPostCounts(db: Db, userIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) return counts;
  const rows = await db
    .selectFrom('posts_authors')
    .innerJoin('posts', 'posts.id', 'posts_authors.post_id')
    .select(['posts_authors.author_id', (eb) => eb.fn.count<number>('posts.id').as('total')])
    .where('posts_authors.author_id', 'in', userIds)
    .where('posts.type', '=', 'post')
    .where('posts.status', '=', 'published')
    .groupBy('posts_authors.author_id')
    .execute();
  for (const row of rows) counts.set(row.author_id, Number(row.total));
  return counts;
}
