import { sql } from 'kysely';
import type { Connection } from './connect.js';

/** `DATABASE_URL` fit for a log or an error message: the password replaced by `***`. */
export function displayDatabaseUrl(databaseUrl: string): string {
  return databaseUrl.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

/** The database could not be reached or refused us; `message` is one line naming DATABASE_URL's target. */
export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';
}

interface DriverError {
  code?: string;
  errno?: number;
  message?: string;
}

/** What went wrong, in words, from the driver's error code (pg, mysql2, better-sqlite3 and Node's socket codes). */
function reasonOf(err: DriverError, target: URL | null): string {
  const database = target?.pathname.slice(1) || '(none)';
  const user = target ? decodeURIComponent(target.username) || '(default)' : '';
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running and listening there?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ETIMEDOUT':
    case 'ECONNRESET':
      return 'no answer (connection timed out or was reset)';
    case '28P01':
    case '28000':
    case 'ER_ACCESS_DENIED_ERROR':
      return `access denied for user ${user} (check the user and password)`;
    case '3D000':
    case 'ER_BAD_DB_ERROR':
      return `database "${database}" does not exist (create it first)`;
    case 'SQLITE_CANTOPEN':
      return 'cannot open the database file (does the folder exist and can this user write to it?)';
    default:
      return (err.message ?? String(err)).split('\n')[0]!;
  }
}

/**
 * Runs one trivial query, so a database that is down or refuses us is reported in one line naming where
 * DATABASE_URL points (without the password) instead of by the first migration's stack trace.
 */
export async function assertReachable(connection: Connection, databaseUrl: string): Promise<void> {
  try {
    await sql`select 1`.execute(connection.db);
  } catch (err) {
    const target = /^[a-z]+:\/\//i.test(databaseUrl) ? new URL(databaseUrl) : null;
    const where = target ? `${target.protocol.replace(':', '')} server at ${target.host}` : `SQLite file ${databaseUrl.slice('sqlite:'.length)}`;
    const tried = target ? ` (database "${target.pathname.slice(1) || '(none)'}", user "${decodeURIComponent(target.username)}")` : '';
    throw new DatabaseUnreachableError(`cannot use the database: the ${where}${tried} from DATABASE_URL: ${reasonOf(err as DriverError, target)}`, {
      cause: err,
    });
  }
}
