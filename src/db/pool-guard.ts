import { errors } from '../errors.js';

/**
 * What stands between Kysely and a database server's connection pool (pg, mysql2), so that losing the server
 * never takes the process down and never holds requests for long:
 *
 * - every connection has an `'error'` listener for its whole life, checked out or idle (node-postgres emits
 *   `'error'` on a checked-out client whose server session ended, and an EventEmitter without a listener
 *   throws it: the process died);
 * - a connection that failed at the connection level (reset, terminated, read timeout) is destroyed when it
 *   is released instead of going back to the pool, which opens a new one on demand;
 * - acquiring a connection has a deadline;
 * - while the server is unreachable, requests fail at once with a 503 instead of each waiting out its own
 *   timeout (`DatabaseBreaker`): one attempt a second goes through to find out whether it is back.
 */

/** Connection-level failures: the session is gone or unusable; the statement itself was not at fault. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, connection_exception family.
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
  // MySQL/MariaDB.
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'QUIRE_ACQUIRE_TIMEOUT',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|Query read timeout|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|read ECONNRESET/i;

export function isConnectionFailure(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && CONNECTION_CODES.has(code)) || (typeof message === 'string' && CONNECTION_MESSAGES.test(message));
}

/** pg-pool's and our own error for a request that waited too long for a free pooled connection. */
const isPoolWait = (err: unknown) =>
  (err as { code?: unknown }).code === 'QUIRE_ACQUIRE_TIMEOUT' || /timeout exceeded when trying to connect/.test(String((err as Error).message));

/** How long the breaker stays open after a failed attempt before letting the next one through. */
const PROBE_INTERVAL_MS = 1000;

/**
 * Open after a connection could not be made (refused, timed out): further acquisitions fail at once with
 * Ghost's 503 `MaintenanceError` until an attempt, one per PROBE_INTERVAL_MS, succeeds again.
 */
export class DatabaseBreaker {
  #openSince: number | null = null;
  #lastAttempt = 0;
  #reason = '';

  constructor(private readonly onChange: (down: boolean, reason: string) => void = () => {}) {}

  get down(): boolean {
    return this.#openSince !== null;
  }
  get reason(): string {
    return this.#reason;
  }

  /** Throws the 503 while open, except for one attempt per interval. */
  admit(): void {
    if (this.#openSince === null) return;
    const now = Date.now();
    if (now - this.#lastAttempt >= PROBE_INTERVAL_MS) {
      this.#lastAttempt = now;
      return;
    }
    throw errors.maintenance({ message: 'The database is unavailable; please try again shortly.', code: 'DATABASE_UNAVAILABLE' });
  }

  failed(err: unknown): void {
    // A wait for a free pooled connection that ran out is load, not an unreachable server.
    if (!isConnectionFailure(err) || isPoolWait(err)) return;
    this.#lastAttempt = Date.now();
    this.#reason = String((err as Error).message ?? err).split('\n')[0]!;
    if (this.#openSince === null) {
      this.#openSince = Date.now();
      this.onChange(true, this.#reason);
    }
  }

  succeeded(): void {
    if (this.#openSince === null) return;
    this.#openSince = null;
    this.onChange(false, '');
  }
}

export interface GuardOptions {
  acquireTimeoutMs: number;
  /** mysql2: a statement without an answer for this long ends its connection (0: never). */
  answerTimeoutMs?: number;
  breaker: DatabaseBreaker;
  /** A connection failed (told once per connection; idle or checked out). */
  onLost: (err: Error) => void;
}

interface PgClient {
  on(event: 'error', listener: (err: Error) => void): unknown;
  query(...args: unknown[]): unknown;
  release(err?: Error | boolean): void;
  __quireBroken?: boolean;
}
interface PgPool {
  connect(): Promise<PgClient>;
  end(): Promise<void>;
  on(event: 'connect', listener: (client: PgClient) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/** node-postgres' pool as Kysely's PostgresDialect uses it (`connect`, `end`), guarded as said above. */
export function guardPgPool(pool: PgPool, { breaker, onLost }: GuardOptions) {
  // An idle client's error reaches the pool's 'error' event (pg-pool removes the client).
  pool.on('error', onLost);
  pool.on('connect', (client) => {
    // Kept for the client's whole life: a checked-out client's error has no other listener.
    client.on('error', (err) => {
      client.__quireBroken = true;
      onLost(err);
    });
    const query = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      const result = query(...args);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        (result as Promise<unknown>).catch((err: unknown) => {
          if (isConnectionFailure(err)) client.__quireBroken = true;
        });
      }
      return result;
    };
  });
  return {
    async connect(): Promise<PgClient> {
      breaker.admit();
      let client: PgClient;
      try {
        // pg's connectionTimeoutMillis bounds both the wait for a free slot and the connect itself.
        client = await pool.connect();
      } catch (err) {
        breaker.failed(err);
        throw err;
      }
      breaker.succeeded();
      const release = client.release.bind(client);
      // Passing an error makes pg-pool destroy the client rather than keep it.
      client.release = () => release(client.__quireBroken ? new Error('connection failed; not reused') : undefined);
      return client;
    },
    end: () => pool.end(),
  };
}

interface MysqlConnection {
  release(): void;
  destroy(): void;
  on(event: 'error', listener: (err: Error) => void): unknown;
  query(sql: string, ...rest: unknown[]): unknown;
}
interface MysqlPool {
  getConnection(callback: (err: NodeJS.ErrnoException | null, connection: MysqlConnection) => void): void;
  end(callback: (err: NodeJS.ErrnoException | null) => void): void;
  on(event: 'connection', listener: (connection: MysqlConnection) => void): unknown;
}

/** mysql2's pool as Kysely's MysqlDialect uses it (`getConnection`, `end`), with a deadline on acquiring. */
export function guardMysqlPool(pool: MysqlPool, { acquireTimeoutMs, answerTimeoutMs = 0, breaker, onLost }: GuardOptions) {
  pool.on('connection', (connection) => {
    connection.on('error', onLost);
    if (answerTimeoutMs > 0) giveUpOnSilence(connection, answerTimeoutMs);
  });
  return {
    getConnection(callback: (err: NodeJS.ErrnoException | null, connection?: MysqlConnection) => void): void {
      try {
        breaker.admit();
      } catch (err) {
        callback(err as NodeJS.ErrnoException);
        return;
      }
      let settled = false;
      // mysql2's pool waits for a free connection without end.
      const timer = setTimeout(() => {
        settled = true;
        const err: NodeJS.ErrnoException = new Error(`no database connection within ${acquireTimeoutMs} ms`);
        err.code = 'QUIRE_ACQUIRE_TIMEOUT';
        breaker.failed(err);
        callback(err);
      }, acquireTimeoutMs);
      pool.getConnection((err, connection) => {
        if (settled) {
          // Too late: hand it back for the next caller; a connect that failed still tells the breaker.
          if (err) breaker.failed(err);
          else connection.release();
          return;
        }
        settled = true;
        clearTimeout(timer);
        if (err) breaker.failed(err);
        else breaker.succeeded();
        callback(err, connection);
      });
    },
    end: (callback: (err: NodeJS.ErrnoException | null) => void) => pool.end(callback),
  };
}

/**
 * A server that stopped answering (frozen, partitioned) cannot end a statement by its own timeout, and mysql2
 * would wait for ever: a statement given a callback that has no answer within `ms` destroys its connection
 * (the pool then opens a new one) and fails.
 */
function giveUpOnSilence(connection: MysqlConnection, ms: number): void {
  const query = connection.query.bind(connection);
  connection.query = (sql: string, ...rest: unknown[]) => {
    const callback = rest.at(-1);
    if (typeof callback !== 'function') return query(sql, ...rest);
    let answered = false;
    const timer = setTimeout(() => {
      answered = true;
      const err: NodeJS.ErrnoException = new Error(`no answer from the database within ${ms} ms`);
      err.code = 'PROTOCOL_SEQUENCE_TIMEOUT';
      connection.destroy();
      (callback as (err: Error) => void)(err);
    }, ms);
    return query(sql, ...rest.slice(0, -1), (...args: unknown[]) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      (callback as (...args: unknown[]) => void)(...args);
    });
  };
}
