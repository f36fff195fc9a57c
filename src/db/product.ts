import { sql } from 'kysely';
import type { ReadDb } from './read-db.js';
import type { Engine } from './engine.js';

const products = new WeakMap<ReadDb, Promise<string>>();

/**
 * The database product as Ghost names it in `/config/` (`sqlite3`, `mysql8`, `mysql5`, `mariadb`); Ghost
 * has no PostgreSQL, so that one is `postgres`. MySQL-family servers are told apart by their version, asked
 * once per handle.
 */
export function databaseProduct(db: ReadDb, engine: Engine): Promise<string> {
  if (engine.kind === 'sqlite') return Promise.resolve('sqlite3');
  if (engine.kind === 'postgres') return Promise.resolve('postgres');
  let known = products.get(db);
  if (!known) {
    known = sql<{ version: string }>`select version() as version`.execute(db).then(({ rows }) => {
      const version = String(rows[0]?.version ?? '');
      if (/mariadb/i.test(version)) return 'mariadb';
      if (version.startsWith('8')) return 'mysql8';
      if (version.startsWith('5')) return 'mysql5';
      return 'mysql';
    });
    known.catch(() => products.delete(db));
    products.set(db, known);
  }
  return known;
}
