import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { Kysely, MysqlDialect, PostgresDialect, type Dialect } from 'kysely';
import { YieldingSqliteDialect } from './sqlite-yielding.js';
import { ENGINES, type Engine } from './engine.js';
import type { Database } from './schema.js';
import { DatabaseBreaker, guardMysqlPool, guardPgPool } from './pool-guard.js';

export type Db = Kysely<Database>;

export interface Connection {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
  /** Open while the database server cannot be reached (requests then fail at once with a 503); SQLite never opens it. */
  breaker?: DatabaseBreaker;
}

/**
 * Opens a connection pool for `databaseUrl` (`sqlite:<file>`, `postgres://…`, `mysql://…`). Only the driver
 * in use is loaded, on first query, which keeps start-up short.
 */
export interface ConnectOptions {
  poolSize?: number;
  /**
   * Told when the server drops a pooled connection, idle or in use (the work on it fails, the pool opens a
   * new one); default: one line on stderr.
   */
  onConnectionLost?: (err: Error) => void;
  /** Told when the server becomes unreachable (`down`) and when it answers again. */
  onAvailability?: (down: boolean, reason: string) => void;
  /** Longest wait for a pooled connection, a free slot or a new connect (`DB_ACQUIRE_TIMEOUT_MS`). */
  acquireTimeoutMs?: number;
  /** Longest run of one statement, ended by the server (`DB_STATEMENT_TIMEOUT_MS`); 0: none. */
  statementTimeoutMs?: number;
}

/** The defaults of DB_ACQUIRE_TIMEOUT_MS and DB_STATEMENT_TIMEOUT_MS (config.ts). */
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 10_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 60_000;

type Settings = Required<Omit<ConnectOptions, 'onAvailability'>> & { breaker: DatabaseBreaker };

export function connect(databaseUrl: string, options: ConnectOptions = {}): Connection {
  const breaker = new DatabaseBreaker(options.onAvailability);
  const settings: Settings = {
    poolSize: options.poolSize ?? 10,
    onConnectionLost: options.onConnectionLost ?? ((err: Error) => console.error(`quire: database connection lost: ${err.message}`)),
    acquireTimeoutMs: options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
    statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    breaker,
  };
  const { dialect, engine } = dialectFor(databaseUrl, settings);
  const db = new Kysely<Database>({ dialect });
  return { db, engine, close: () => db.destroy(), ...(engine.kind === 'sqlite' ? {} : { breaker }) };
}

function dialectFor(databaseUrl: string, settings: Settings): { dialect: Dialect; engine: Engine } {
  const { poolSize, onConnectionLost: onLost, acquireTimeoutMs, statementTimeoutMs, breaker } = settings;
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') createPrivately(file);
    return { engine: ENGINES.sqlite, dialect: new YieldingSqliteDialect({ database: async () => (await import('./sqlite-database.js')).openSqlite(file) }) };
  }
  if (/^postgres(ql)?:/.test(databaseUrl)) {
    const pool = async () => {
      const { default: pg } = await import('pg');
      // Timestamps are stored in UTC; without this pg would read `timestamp` columns in the process's zone.
      pg.types.setTypeParser(1114, (value: string) => new Date(value.replace(' ', 'T') + 'Z'));
      // COUNT(*) and bigint ids arrive as strings by default; counts here always fit a JS number.
      pg.types.setTypeParser(20, (value: string) => Number(value));
      const pool = new pg.Pool({
        connectionString: databaseUrl,
        max: poolSize,
        connectionTimeoutMillis: acquireTimeoutMs,
        keepAlive: true,
        // The server ends a long statement; the client gives up a little later on a server that stopped
        // answering altogether (frozen, partitioned), where the server's own timeout cannot fire. A transaction
        // left idle as long (its process stalled or frozen mid-transaction) is ended by the server, so the rows
        // it locked do not hold up every other instance until the process runs again.
        ...(statementTimeoutMs > 0
          ? { statement_timeout: statementTimeoutMs, query_timeout: answerTimeout(statementTimeoutMs), idle_in_transaction_session_timeout: statementTimeoutMs }
          : {}),
      });
      return guardPgPool(pool as never, { acquireTimeoutMs, breaker, onLost }) as unknown as InstanceType<typeof pg.Pool>;
    };
    return { engine: ENGINES.postgres, dialect: new PostgresDialect({ pool }) };
  }
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  const pool = async () => {
    const raw = (await import('mysql2')).createPool({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.slice(1) || undefined,
      connectionLimit: poolSize,
      connectTimeout: acquireTimeoutMs,
      enableKeepAlive: true,
      timezone: 'Z',
      charset: 'utf8mb4',
      supportBigNumbers: true,
      // tinyint(1) is how MySQL spells boolean; hand it back as one, like the other engines.
      typeCast(field, next) {
        if (field.type === 'TINY' && field.length === 1) {
          const value = field.string();
          return value === null ? null : value === '1';
        }
        if (field.type === 'LONGLONG') {
          const value = field.string();
          return value === null ? null : Number(value);
        }
        if (field.type === 'NEWDECIMAL') {
          const value = field.string();
          return value === null ? null : Number(value);
        }
        return next();
      },
    });
    if (statementTimeoutMs > 0) {
      // MariaDB counts in seconds (max_statement_time), MySQL in milliseconds for SELECTs only
      // (max_execution_time); each server refuses the other's variable, which is ignored. MariaDB also ends a
      // transaction left idle as long (idle_transaction_timeout, whole seconds), as PostgreSQL does above.
      raw.on('connection', (connection) => {
        const ignore = () => undefined;
        connection.query(`SET SESSION max_statement_time = ${statementTimeoutMs / 1000}`, ignore);
        connection.query(`SET SESSION max_execution_time = ${Math.round(statementTimeoutMs)}`, ignore);
        connection.query(`SET SESSION idle_transaction_timeout = ${Math.max(1, Math.ceil(statementTimeoutMs / 1000))}`, ignore);
      });
    }
    return guardMysqlPool(raw as never, { acquireTimeoutMs, answerTimeoutMs: answerTimeout(statementTimeoutMs), breaker, onLost }) as unknown as typeof raw;
  };
  return { engine: ENGINES.mysql, dialect: new MysqlDialect({ pool }) };
}

/** How long the client waits for a server that cannot end a statement itself (frozen, partitioned); 0: for ever. */
const answerTimeout = (statementTimeoutMs: number) => (statementTimeoutMs > 0 ? statementTimeoutMs + Math.min(5000, statementTimeoutMs) : 0);

/**
 * The SQLite file holds every secret of the site (admin API keys, sessions, members): its folder is made 700
 * and the file 600 before SQLite opens it, whatever the umask (SQLite gives the -wal and -shm files the
 * database file's mode). Existing files keep the mode their operator gave them.
 */
function createPrivately(file: string): void {
  const folder = path.dirname(file);
  if (!existsSync(folder)) {
    mkdirSync(path.dirname(folder), { recursive: true });
    mkdirSync(folder, { mode: 0o700 });
  }
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
}
