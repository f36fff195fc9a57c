import type { ReadDb } from '../../db/read-db.js';
import type { UserRow } from '../../db/schema.js';
import { authorHasPublishedPost } from '../users/users.queries.js';

/** A Content API author: only users with a published post exist there. */
export function findPublicAuthor(db: ReadDb, by: { id: string } | { slug: string }): Promise<UserRow | undefined> {
  const query = db.selectFrom('users').where(authorHasPublishedPost).selectAll('users');
  return ('id' in by ? query.where('users.id', '=', by.id) : query.where('users.slug', '=', by.slug)).executeTakeFirst();
}
