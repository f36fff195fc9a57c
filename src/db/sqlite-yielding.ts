import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';

/**
 * A statement that kept the event loop this long hands it back before its result is used. SQLite runs on
 * the event loop, and a request's statements, its commit and the writing of its answer follow each other in
 * microtasks, so without a turn between them a large save (a 20 MB post: its insert, its revision, the commit,
 * a 20 MB answer) is one block of seconds in which no other request starts and the request queue sheds
 * readers that waited. A read's statement takes well under a millisecond, so reads never pay for the turn.
 */
const LONG_STATEMENT_MS = 20;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Kysely's SQLite dialect whose connection gives the event loop a turn after each long statement. SQLite has one
 * connection, and Kysely's driver runs begin, commit and rollback through the connection it handed out: wrapping
 * that one connection covers every statement.
 */
export class YieldingSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    let yielding: DatabaseConnection | undefined;
    driver.acquireConnection = async () => {
      const connection = await acquire();
      return (yielding ??= yieldingConnection(connection));
    };
    return driver;
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
