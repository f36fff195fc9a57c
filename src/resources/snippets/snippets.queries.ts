import type { Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ReadDb } from '../../db/read-db.js';
import type { Database, SnippetRow } from '../../db/schema.js';
import { columnsOf } from '../../browse/fields.js';
import { SNIPPET_FIELDS } from './snippets.fields.js';

const SNIPPET_COLUMNS = columnsOf(SNIPPET_FIELDS);

export function findSnippet(db: ReadDb, id: string): Promise<SnippetRow | undefined> {
  return db.selectFrom('snippets').select(SNIPPET_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Is `name` used by a snippet other than `exceptId`? */
export async function snippetNameTaken(db: ReadDb, name: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('snippets').select('id').where('name', '=', name);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertSnippet(db: Db, row: SnippetRow): Promise<void> {
  await db.insertInto('snippets').values(row).execute();
}

export async function updateSnippet(db: Db, id: string, values: Updateable<Database['snippets']>): Promise<void> {
  await db.updateTable('snippets').set(values).where('id', '=', id).execute();
}

export async function deleteSnippetRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('snippets').where('id', '=', id).execute();
}
