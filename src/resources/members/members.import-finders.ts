import type { Db } from '../../db/connect.js';
import type { TierRow } from '../../db/schema.js';

/** Tiers as the importer finds them: the default paid tier for comped rows, others by name (the last made wins, as in Ghost). */
export function tierFinder(db: Db) {
  const byName = new Map<string, Promise<TierRow | undefined>>();
  let fallback: Promise<TierRow | undefined> | undefined;
  return {
    named: (name: string) => {
      if (!byName.has(name)) {
        byName.set(name, db.selectFrom('products').selectAll().where('name', '=', name).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst());
      }
      return byName.get(name)!;
    },
    default: () =>
      (fallback ??= db
        .selectFrom('products')
        .selectAll()
        .where('type', '=', 'paid')
        .where('active', '=', true)
        .orderBy('created_at')
        .orderBy('id')
        .executeTakeFirst()),
  };
}

/** Newsletters by name (without case), for a file that names them. */
export function newsletterFinder(db: Db) {
  let all: Promise<Map<string, string>> | undefined;
  return async (name: string) => {
    all ??= db
      .selectFrom('newsletters')
      .select(['id', 'name'])
      .execute()
      .then((rows) => new Map(rows.map((row) => [row.name.toLowerCase(), row.id])));
    return (await all).get(name.toLowerCase());
  };
}

/** The names a cell lists, comma-separated (Ghost's export joins tier and label names so). */
export const listed = (cell: unknown) =>
  typeof cell === 'string'
    ? cell
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    : [];
