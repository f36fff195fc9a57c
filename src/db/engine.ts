import { sql, type RawBuilder } from 'kysely';

/**
 * What feature code may know about the engine: capabilities and column types, never its name.
 */
export interface Engine {
  readonly kind: 'sqlite' | 'postgres' | 'mysql';
  /** Column types for migrations. */
  readonly types: ColumnTypes;
  /** `LIKE` is case-insensitive on this engine's default collation (SQLite ASCII, MySQL *_ci); PostgreSQL needs ILIKE. */
  readonly likeIsCaseInsensitive: boolean;
}

export interface ColumnTypes {
  /** Timestamp with millisecond room, always UTC. */
  readonly timestamp: 'timestamp' | 'timestamptz' | 'datetime(3)';
  readonly boolean: 'boolean';
  /** Text with no practical length limit (post bodies, JSON). */
  readonly longText: 'text' | RawBuilder<unknown>;
  readonly text: 'text';
}

export const ENGINES: Record<Engine['kind'], Engine> = {
  sqlite: { kind: 'sqlite', likeIsCaseInsensitive: true, types: { timestamp: 'timestamp', boolean: 'boolean', longText: 'text', text: 'text' } },
  postgres: { kind: 'postgres', likeIsCaseInsensitive: false, types: { timestamp: 'timestamptz', boolean: 'boolean', longText: 'text', text: 'text' } },
  mysql: { kind: 'mysql', likeIsCaseInsensitive: true, types: { timestamp: 'datetime(3)', boolean: 'boolean', longText: sql`longtext`, text: 'text' } },
};
