import type { Insertable } from 'kysely';
import type { Db } from './connect.js';
import type { Database } from './schema.js';

/**
 * Rows per multi-row INSERT and ids per `IN` list: far below SQLite's 32,766 bound parameters and, for
 * the project's row widths, MySQL's packet limit, while still few statements for large writes.
 */
export const ROWS_PER_STATEMENT = 500;

export function* chunksOf<T>(items: readonly T[], size = ROWS_PER_STATEMENT): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Inserts `rows` into `table` in statements of ROWS_PER_STATEMENT rows. */
export async function insertInChunks<T extends keyof Database & string>(db: Db, table: T, rows: readonly Insertable<Database[T]>[]): Promise<void> {
  // Kysely cannot narrow `values` for a table chosen by a type parameter; `rows` is checked against it above.
  for (const chunk of chunksOf(rows))
    await db
      .insertInto(table)
      .values(chunk as never)
      .execute();
}
