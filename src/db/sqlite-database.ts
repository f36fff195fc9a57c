import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { delayedCheckpoints } from './sqlite-checkpoints.js';
import { openSqliteDriver, type SqliteDriver, type SqliteDriverStatement } from './sqlite-driver.js';

/**
 * SQLite binds neither Date nor boolean and returns timestamps as text and booleans as 0/1. This wrapper
 * makes SQLite rows look like PostgreSQL and MySQL rows (Date, boolean), using each result column's declared
 * type, so feature code never sees the engine.
 */
export async function openSqlite(file: string): Promise<SqliteDatabase> {
  const driver = await openSqliteDriver(file);
  driver.exec('PRAGMA journal_mode = WAL');
  driver.exec('PRAGMA foreign_keys = ON');
  driver.exec('PRAGMA busy_timeout = 5000');
  driver.exec('PRAGMA synchronous = NORMAL');
  // SQLite's own page cache size (2 MB), which node:sqlite keeps and better-sqlite3 raises to 16 MB: after a day of
  // writes the larger one held 10 MB of pages in the process, which the kernel's cache of the file holds anyway.
  driver.exec('PRAGMA cache_size = -2000');
  // lower() with Unicode case mapping, so filters fold `É` like PostgreSQL and MySQL do (engine.text.lower).
  driver.defineFunction('quire_lower', (value) => (typeof value === 'string' ? value.toLowerCase() : value));
  const checkpoints = delayedCheckpoints(driver);
  return {
    close: () => {
      checkpoints.stop();
      driver.close();
    },
    prepare: cachedPrepare(driver, checkpoints.wrote),
  };
}

/** Statements kept per SQL text: preparing (and reading column types) costs more than running most queries. */
const STATEMENT_CACHE_SIZE = 500;

function cachedPrepare(raw: SqliteDriver, wrote: () => void): (sql: string) => SqliteStatement {
  const cache = new Map<string, SqliteStatement>();
  return (sql) => {
    // A schema change can change what `SELECT *` returns: start afresh after DDL.
    if (/^\s*(create|alter|drop)\b/i.test(sql)) {
      cache.clear();
      return wrapStatement(raw.prepare(sql), wrote);
    }
    if (/^\s*rollback\s*$/i.test(sql)) return forgivingRollback(raw.prepare(sql), wrote);
    let statement = cache.get(sql);
    if (statement) {
      cache.delete(sql);
    } else {
      statement = wrapStatement(raw.prepare(sql), /^\s*select\b/i.test(sql) ? undefined : wrote);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  };
}

/**
 * SQLite rolls a transaction back by itself after some failures (a full disk: SQLITE_FULL, an I/O error), and
 * the ROLLBACK that follows then fails with "cannot rollback - no transaction is active", which would replace
 * the real cause in the error the request reports and logs. That one failure of ROLLBACK is let pass.
 */
function forgivingRollback(statement: SqliteDriverStatement, wrote: () => void): SqliteStatement {
  const wrapped = wrapStatement(statement, wrote);
  return {
    ...wrapped,
    run: (parameters) => {
      try {
        return wrapped.run(parameters);
      } catch (err) {
        if (/no transaction is active/i.test((err as Error).message)) return { changes: 0, lastInsertRowid: 0 };
        throw err;
      }
    },
  };
}

/** `wrote`, when given, is told each time the statement runs: it may have written (telling is cheap). */
function wrapStatement(statement: SqliteDriverStatement, wrote?: () => void): SqliteStatement {
  const converters = statement.reader ? columnConverters(statement) : null;
  const convertRow = (row: Record<string, unknown>) => {
    if (converters) for (const [name, convert] of converters) row[name] = convert(row[name]);
    return row;
  };
  return {
    reader: statement.reader,
    all: (parameters) => {
      const rows = statement.all(...bind(parameters));
      wrote?.();
      if (converters?.length) rows.forEach(convertRow);
      return rows;
    },
    run: (parameters) => {
      const result = statement.run(...bind(parameters));
      wrote?.();
      return result;
    },
    iterate: (parameters) => mapIterator(statement.iterate(...bind(parameters)), convertRow),
  };
}

function* mapIterator<T>(it: IterableIterator<T>, fn: (value: T) => T): IterableIterator<T> {
  for (const value of it) yield fn(value);
}

type Converter = (value: unknown) => unknown;

function columnConverters(statement: SqliteDriverStatement): [string, Converter][] {
  const out: [string, Converter][] = [];
  for (const column of statement.columns()) {
    const type = column.type?.toLowerCase();
    if (type === 'timestamp') out.push([column.name, toDate]);
    else if (type === 'boolean') out.push([column.name, toBoolean]);
  }
  return out;
}

const toDate: Converter = (v) => (v === null || v === undefined ? v : new Date(v as string));
const toBoolean: Converter = (v) => (v === null || v === undefined ? v : Boolean(v));

function bind(parameters: readonly unknown[]): unknown[] {
  return parameters.map((p) => (p instanceof Date ? p.toISOString() : typeof p === 'boolean' ? (p ? 1 : 0) : p));
}
