import Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * better-sqlite3 binds neither Date nor boolean and returns timestamps as text and booleans as 0/1.
 * This wrapper makes SQLite rows look like PostgreSQL and MySQL rows (Date, boolean), using each result
 * column's declared type, so feature code never sees the engine.
 */
export function openSqlite(file: string): SqliteDatabase & { raw: Database.Database } {
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('synchronous = NORMAL');
  // lower() with Unicode case mapping, so filters fold `É` like PostgreSQL and MySQL do (engine.text.lower).
  raw.function('quire_lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
  return {
    raw,
    close: () => raw.close(),
    prepare: cachedPrepare(raw),
  };
}

/** Statements kept per SQL text: preparing (and reading column types) costs more than running most queries. */
const STATEMENT_CACHE_SIZE = 500;

function cachedPrepare(raw: Database.Database): (sql: string) => SqliteStatement {
  const cache = new Map<string, SqliteStatement>();
  return (sql) => {
    // A schema change can change what `SELECT *` returns: start afresh after DDL.
    if (/^\s*(create|alter|drop)\b/i.test(sql)) {
      cache.clear();
      return wrapStatement(raw.prepare(sql));
    }
    let statement = cache.get(sql);
    if (statement) {
      cache.delete(sql);
    } else {
      statement = wrapStatement(raw.prepare(sql));
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  };
}

function wrapStatement(statement: Database.Statement): SqliteStatement {
  const converters = statement.reader ? columnConverters(statement) : null;
  const convertRow = (row: Record<string, unknown>) => {
    if (converters) for (const [name, convert] of converters) row[name] = convert(row[name]);
    return row;
  };
  return {
    reader: statement.reader,
    all: (parameters) => {
      const rows = statement.all(...bind(parameters)) as Record<string, unknown>[];
      if (converters?.length) rows.forEach(convertRow);
      return rows;
    },
    run: (parameters) => statement.run(...bind(parameters)),
    iterate: (parameters) => mapIterator(statement.iterate(...bind(parameters)) as IterableIterator<Record<string, unknown>>, convertRow),
  };
}

function* mapIterator<T>(it: IterableIterator<T>, fn: (value: T) => T): IterableIterator<T> {
  for (const value of it) yield fn(value);
}

type Converter = (value: unknown) => unknown;

function columnConverters(statement: Database.Statement): [string, Converter][] {
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
