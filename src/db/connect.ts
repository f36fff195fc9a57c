import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, type Dialect } from 'kysely';
import { ENGINES, type Engine } from './engine.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface Connection {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
}

/**
 * Opens a connection pool for `databaseUrl` (`sqlite:<file>`, `postgres://…`, `mysql://…`). Only the driver
 * in use is loaded, on first query, which keeps start-up short.
 */
export interface ConnectOptions {
  poolSize?: number;
  /** Told when the server drops an idle pooled connection (the pool replaces it); default: one line on stderr. */
  onIdleConnectionLost?: (err: Error) => void;
}

export function connect(databaseUrl: string, options: ConnectOptions = {}): Connection {
  const onLost = options.onIdleConnectionLost ?? ((err: Error) => console.error(`quire: idle database connection lost: ${err.message}`));
  const { dialect, engine } = dialectFor(databaseUrl, options.poolSize ?? 10, onLost);
  const db = new Kysely<Database>({ dialect });
  return { db, engine, close: () => db.destroy() };
}

function dialectFor(databaseUrl: string, poolSize: number, onLost: (err: Error) => void): { dialect: Dialect; engine: Engine } {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    return { engine: ENGINES.sqlite, dialect: new SqliteDialect({ database: async () => (await import('./sqlite-database.js')).openSqlite(file) }) };
  }
  if (/^postgres(ql)?:/.test(databaseUrl)) {
    const pool = async () => {
      const { default: pg } = await import('pg');
      // Timestamps are stored in UTC; without this pg would read `timestamp` columns in the process's zone.
      pg.types.setTypeParser(1114, (value: string) => new Date(value.replace(' ', 'T') + 'Z'));
      // COUNT(*) and bigint ids arrive as strings by default; counts here always fit a JS number.
      pg.types.setTypeParser(20, (value: string) => Number(value));
      const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
      // An idle connection dropped by the server (restart, failover) must not crash the process; the pool
      // replaces it on the next query.
      pool.on('error', onLost);
      return pool;
    };
    return { engine: ENGINES.postgres, dialect: new PostgresDialect({ pool }) };
  }
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  const pool = async () =>
    (await import('mysql2')).createPool({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.slice(1) || undefined,
      connectionLimit: poolSize,
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
  return { engine: ENGINES.mysql, dialect: new MysqlDialect({ pool }) };
}
