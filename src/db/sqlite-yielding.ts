import {
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * A statement that kept the event loop this long hands it back before its result is used. SQLite runs on
 * the event loop, and a request's statements, its commit and the writing of its answer follow each other in
 * microtasks, so without a turn between them a large save (a 20 MB post: its insert, its revision, the commit,
 * a 20 MB answer) is one block of seconds in which no other request starts and the request queue sheds
 * readers that waited. A read's statement takes well under a millisecond, so reads never pay for the turn.
 */
const LONG_STATEMENT_MS = 20;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Kysely's SQLite dialect whose connection gives the event loop a turn after each long statement. */
export class YieldingSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    return new YieldingDriver(super.createDriver());
  }
}

class YieldingDriver implements Driver {
  readonly #inner: Driver;
  readonly #connections = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    let yielding = this.#connections.get(connection);
    if (!yielding) {
      yielding = yieldingConnection(connection);
      this.#connections.set(connection, yielding);
    }
    return yielding;
  }

  // The inner driver runs begin, commit and rollback through the connection it is given: the yielding one.
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#inner.savepoint!(connection, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#inner.rollbackToSavepoint!(connection, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#inner.releaseSavepoint!(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

function yieldingConnection(inner: DatabaseConnection): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const started = performance.now();
      const result = await inner.executeQuery<R>(query);
      if (performance.now() - started >= LONG_STATEMENT_MS) await nextTurn();
      return result;
    },
    streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
  };
}
