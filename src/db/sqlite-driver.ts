/**
 * The SQLite library under the embedded engine, chosen by the Node version it runs on:
 *
 * - Node 20 (and 22 before 22.16): better-sqlite3 12, a native module compiled at install when no prebuilt
 *   binary can be fetched. (Version 13 needs Node 22 and crashes on Node 20.) It comes through the local
 *   optional package `packages/sqlite-node20`, whose `engines` range is the complement of nodeSqliteUsable():
 *   npm skips it, and so never compiles better-sqlite3, on the Node versions that use `node:sqlite`.
 * - Node 22.16 and later, 23.11 and later, 24 and later: Node's own `node:sqlite`, unflagged since 22.13, with
 *   `StatementSync.columns()` and `backup()` since 22.16 / 23.11. Nothing to compile; and better-sqlite3 12
 *   aborts the process on Node 24 (its object wrappers assert when a statement is garbage-collected or freed
 *   at exit), while 13 would leave Node 20 without a driver.
 *
 * Both are given the same small shape, with better-sqlite3's error codes (`SQLITE_CONSTRAINT_UNIQUE`, …), so
 * the rest of `db/` does not know which one it has.
 */
export interface SqliteDriver {
  exec(sql: string): void;
  prepare(sql: string): SqliteDriverStatement;
  /** A deterministic scalar SQL function. */
  defineFunction(name: string, fn: (value: unknown) => unknown): void;
  /**
   * A consistent copy of the database written to `destination` while others keep reading and writing
   * (SQLite's online backup API, page by page).
   */
  backup(destination: string): Promise<void>;
  close(): void;
}

export interface SqliteDriverStatement {
  /** Whether it returns rows. */
  readonly reader: boolean;
  /** Result columns with their declared types (`timestamp`, `boolean`, …; null for expressions). */
  columns(): { name: string; type: string | null }[];
  all(...parameters: unknown[]): Record<string, unknown>[];
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): IterableIterator<Record<string, unknown>>;
}

/** Whether this Node has what the embedded engine needs of `node:sqlite` (see above). */
export function nodeSqliteUsable(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major >= 24 || (major === 23 && minor >= 11) || (major === 22 && minor >= 16);
}

const usesNodeSqlite = nodeSqliteUsable();

export async function openSqliteDriver(file: string): Promise<SqliteDriver> {
  return usesNodeSqlite ? openNodeSqlite(file) : openBetterSqlite(file);
}

async function openBetterSqlite(file: string): Promise<SqliteDriver> {
  // Loaded only here: on Node 24 merely loading it and letting a statement go is enough to abort.
  const { default: Database } = await import('better-sqlite3').catch((err: unknown) => {
    throw new Error(
      `Node ${process.versions.node} needs better-sqlite3 for SQLite, and it is not installed: this install was probably ` +
        'made with a newer Node (22.16+, 23.11+ or 24+, which use node:sqlite and skip it). Run `npm install` again with this Node.',
      { cause: err },
    );
  });
  const db = new Database(file);
  return {
    exec: (sql) => void db.exec(sql),
    prepare: (sql) => withRowObjects(db.prepare(sql) as unknown as BetterSqliteStatement),
    defineFunction: (name, fn) => void db.function(name, { deterministic: true }, fn),
    backup: async (destination) => void (await db.backup(destination)),
    close: () => void db.close(),
  };
}

/** better-sqlite3's statement, with the switch to rows as arrays of values. */
interface BetterSqliteStatement extends SqliteDriverStatement {
  raw(on: boolean): unknown;
}

/**
 * better-sqlite3 builds each row object column by column through V8's generic property API, which cost
 * twice as much as reading the values (a page of posts with their tags and authors: ~1,700 values a
 * request). The statement returns arrays instead, and each becomes an object through a function made once per
 * statement for its columns: an object literal, so every row is made with one hidden class. The objects are the
 * ones better-sqlite3 would give (keys in column order; of two columns with one name, the last one's value).
 */
function withRowObjects(statement: BetterSqliteStatement): SqliteDriverStatement {
  if (!statement.reader) return statement;
  statement.raw(true);
  const columns = statement.columns();
  const toObject = rowObjectMaker(columns.map((column) => column.name));
  return {
    reader: true,
    columns: () => columns,
    all: (...parameters) => (statement.all(...parameters) as unknown as unknown[][]).map(toObject),
    run: (...parameters) => statement.run(...parameters),
    iterate: (...parameters) => mappedRows(statement.iterate(...parameters) as unknown as IterableIterator<unknown[]>, toObject),
  };
}

function rowObjectMaker(names: readonly string[]): (values: unknown[]) => Record<string, unknown> {
  // A literal's `"__proto__":` key would set the prototype: such a column (never ours) takes the slow way.
  if (names.includes('__proto__')) return (values) => Object.fromEntries(names.map((name, i) => [name, values[i]]));
  // Column names are only ever written into the function as JSON string literals.
  const body = `return {${names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ')}};`;
  return new Function('values', body) as (values: unknown[]) => Record<string, unknown>;
}

function* mappedRows<T, U>(rows: IterableIterator<T>, fn: (row: T) => U): IterableIterator<U> {
  for (const row of rows) yield fn(row);
}

/** The part of `node:sqlite` used here (this project's Node types are Node 20's, which lack the module). */
interface NodeSqliteModule {
  DatabaseSync: new (file: string) => {
    exec(sql: string): void;
    prepare(sql: string): {
      columns(): { name: string; type: string | null }[];
      all(...parameters: unknown[]): Record<string, unknown>[];
      run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
      iterate(...parameters: unknown[]): IterableIterator<Record<string, unknown>>;
    };
    function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): void;
    close(): void;
  };
  /** Node 22.16 and later. */
  backup(source: InstanceType<NodeSqliteModule['DatabaseSync']>, destination: string): Promise<number>;
}

async function openNodeSqlite(file: string): Promise<SqliteDriver> {
  const moduleName = 'node:sqlite';
  const { DatabaseSync, backup } = (await import(moduleName)) as NodeSqliteModule;
  const db = withCodes(() => new DatabaseSync(file));
  // node:sqlite gives rows without a prototype; the rest of the code (and its tests) expect plain objects.
  const plain = (row: Record<string, unknown>) => ({ ...row });
  return {
    exec: (sql) => withCodes(() => db.exec(sql)),
    prepare: (sql) => {
      const statement = withCodes(() => db.prepare(sql));
      const columns = statement.columns();
      return {
        reader: columns.length > 0,
        columns: () => columns,
        all: (...parameters) => withCodes(() => statement.all(...parameters).map(plain)),
        run: (...parameters) => withCodes(() => statement.run(...parameters)),
        iterate: (...parameters) => plainRows(statement.iterate(...parameters), plain),
      };
    },
    defineFunction: (name, fn) => db.function(name, { deterministic: true }, fn),
    backup: async (destination) => void (await backup(db, destination)),
    close: () => db.close(),
  };
}

function* plainRows(
  rows: IterableIterator<Record<string, unknown>>,
  plain: (row: Record<string, unknown>) => Record<string, unknown>,
): IterableIterator<Record<string, unknown>> {
  for (;;) {
    const next = withCodes(() => rows.next());
    if (next.done) return;
    yield plain(next.value);
  }
}

/** SQLite's extended result codes (node:sqlite's `errcode`) under the names better-sqlite3 gives them. */
const RESULT_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
  275: 'SQLITE_CONSTRAINT_CHECK',
  787: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  1299: 'SQLITE_CONSTRAINT_NOTNULL',
  1555: 'SQLITE_CONSTRAINT_PRIMARYKEY',
  2067: 'SQLITE_CONSTRAINT_UNIQUE',
};

function withCodes<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    const e = err as { code?: string; errcode?: number };
    if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
      e.code = RESULT_CODES[e.errcode] ?? RESULT_CODES[e.errcode & 0xff] ?? 'SQLITE_ERROR';
    }
    throw err;
  }
}
