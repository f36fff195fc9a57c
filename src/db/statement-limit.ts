import type { ReadDb } from './read-db.js';
import type { Engine } from './engine.js';

// Kept per engine: a process talks to one database server.
const limits = new WeakMap<Engine, Promise<number | null>>();

/**
 * The engine's statement size limit in bytes (`engine.statementLimit`), read once per database and kept;
 * null when the engine has none. A MySQL/MariaDB server refuses a larger statement by dropping the
 * connection, and the rollback that follows fails too and hides why: writers of very large values check first.
 */
export function statementLimit(db: ReadDb, engine: Engine): Promise<number | null> {
  const query = engine.statementLimit;
  if (!query) return Promise.resolve(null);
  let limit = limits.get(engine);
  if (!limit) {
    limit = query.execute(db).then((result) => Number(result.rows[0]?.bytes ?? 0) || null);
    // A failed read is tried again by the next writer rather than kept.
    limit.catch(() => limits.delete(engine));
    limits.set(engine, limit);
  }
  return limit;
}
