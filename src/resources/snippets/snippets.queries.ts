import type { Db } from '../../db/connect.js';
import type { SnippetRow } from '../../db/schema.js';

export function findSnippet(db: Db, id: string): Promise<SnippetRow | undefined> {
  return db.selectFrom('snippets').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Is `name` used by a snippet other than `exceptId`? */
export async function snippetNameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('snippets').select('id').where('name', '=', name);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}
