import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database, UserRow } from '../../db/schema.js';

/** Users attached to at least one published post or page: the Content API's authors. */
function hasPublishedPosts(eb: ExpressionBuilder<Database, 'users'>) {
  return eb.exists(
    eb.selectFrom('posts_authors')
      .innerJoin('posts', 'posts.id', 'posts_authors.post_id')
      .select('posts_authors.id')
      .whereRef('posts_authors.author_id', '=', 'users.id')
      .where('posts.status', '=', 'published'),
  );
}

function publicAuthors(db: Db) {
  return db.selectFrom('users').where((eb) => hasPublishedPosts(eb));
}

export function findPublicAuthor(db: Db, by: { id: string } | { slug: string }): Promise<UserRow | undefined> {
  const query = publicAuthors(db).selectAll('users');
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
