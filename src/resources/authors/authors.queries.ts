import type { ReadDb } from '../../db/read-db.js';
import type { UserRow } from '../../db/schema.js';
import { columnsOf } from '../../browse/fields.js';
import { authorHasPublishedPost } from '../users/users.queries.js';
import { USER_FIELDS } from '../users/users.fields.js';

const USER_COLUMNS = columnsOf(USER_FIELDS).map((column) => `users.${column}` as const);

/** A Content API author: only users with a published post exist there. */
export function findPublicAuthor(db: ReadDb, by: { id: string } | { slug: string }): Promise<UserRow | undefined> {
  const query = db.selectFrom('users').where(authorHasPublishedPost).select(USER_COLUMNS);
  return ('id' in by ? query.where('users.id', '=', by.id) : query.where('users.slug', '=', by.slug)).executeTakeFirst();
}
