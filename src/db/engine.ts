import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * What feature code may know about the engine: capabilities and column types, never its name.
 */
export interface Engine {
  readonly kind: 'sqlite' | 'postgres' | 'mysql';
  /** Column types for migrations. */
  readonly types: ColumnTypes;
  /** Text comparison and sorting that agree on every engine (used by filters and `order`). */
  readonly text: TextSql;
  /**
   * `SELECT … FOR UPDATE SKIP LOCKED` exists (PostgreSQL; MySQL 8 and MariaDB 10.6+, the versions this
   * service supports): job claims lock their rows and pass over rows another instance is claiming. Without it
   * (SQLite, whose writes are serialised anyway) a claim is a conditional UPDATE per row.
   */
  readonly skipLocked: boolean;
  /**
   * The largest statement the server accepts, in bytes, when it has a bound below the request-body limit
   * (MySQL/MariaDB's `max_allowed_packet`, 16 MB by default on MariaDB); null when it has none.
   */
  readonly statementLimit: RawBuilder<{ bytes: number | string }> | null;
  /**
   * Queries run inside this process (SQLite): a second small query costs microseconds, where on a server it is
   * a round trip. Reads that could be one larger statement or two small ones choose by it.
   */
  readonly inProcess: boolean;
}

/**
 * Filters and `order` compare text byte-wise, as Ghost on SQLite does: case-sensitive `=`, code-point
 * order. MySQL's `_ci` collations and PostgreSQL's locale collations would otherwise fold case, accents
 * or punctuation differently on each engine.
 */
export interface TextSql {
  /** `expr` under byte-wise (code-point) comparison and sorting. */
  binary(expr: Expression<unknown>): RawBuilder<unknown>;
  /** Lower-case with Unicode case mapping (SQLite's own `lower()` maps ASCII only). */
  lower(expr: Expression<unknown>): RawBuilder<string>;
  /** Plain `=` on text columns is already byte-wise, so an index can serve it unchanged. */
  readonly equalityIsBinary: boolean;
  /** NULL sorts before every value ascending (SQLite, MySQL); otherwise ask for NULLS FIRST/LAST. */
  readonly nullsSortFirst: boolean;
}

export interface ColumnTypes {
  /** Timestamp with millisecond room, always UTC. */
  readonly timestamp: 'timestamp' | 'timestamptz' | 'datetime(3)';
  readonly boolean: 'boolean';
  /** Text with no practical length limit (post bodies, JSON). */
  readonly longText: 'text' | RawBuilder<unknown>;
  readonly text: 'text';
  /** The engine's own full-text index: SQLite FTS5, PostgreSQL tsvector + GIN, InnoDB FULLTEXT. */
  readonly fullText: 'fts5' | 'tsvector' | 'innodb';
}

const SQLITE_TEXT: TextSql = {
  binary: (expr) => sql`${expr}`,
  // Registered on each connection by openSqlite().
  lower: (expr) => sql<string>`quire_lower(${expr})`,
  equalityIsBinary: true,
  nullsSortFirst: true,
};
const POSTGRES_TEXT: TextSql = {
  binary: (expr) => sql`${expr} collate "C"`,
  lower: (expr) => sql<string>`lower(${expr})`,
  equalityIsBinary: true,
  nullsSortFirst: false,
};
const MYSQL_TEXT: TextSql = {
  binary: (expr) => sql`cast(${expr} as binary)`,
  lower: (expr) => sql<string>`lower(${expr})`,
  equalityIsBinary: false,
  nullsSortFirst: true,
};

export const ENGINES: Record<Engine['kind'], Engine> = {
  sqlite: {
    kind: 'sqlite',
    text: SQLITE_TEXT,
    skipLocked: false,
    statementLimit: null,
    inProcess: true,
    types: { timestamp: 'timestamp', boolean: 'boolean', longText: 'text', text: 'text', fullText: 'fts5' },
  },
  postgres: {
    kind: 'postgres',
    text: POSTGRES_TEXT,
    skipLocked: true,
    statementLimit: null,
    inProcess: false,
    types: { timestamp: 'timestamptz', boolean: 'boolean', longText: 'text', text: 'text', fullText: 'tsvector' },
  },
  mysql: {
    kind: 'mysql',
    text: MYSQL_TEXT,
    skipLocked: true,
    statementLimit: sql<{ bytes: number | string }>`select @@max_allowed_packet as bytes`,
    inProcess: false,
    types: { timestamp: 'datetime(3)', boolean: 'boolean', longText: sql`longtext`, text: 'text', fullText: 'innodb' },
  },
};
