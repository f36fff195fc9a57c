/**
 * Whether the database takes writes, as the last write found: a disk that is full, or a database that became
 * read-only (a failover onto a replica, a file without write permission), fails every write while reads go
 * on. Readiness (`/_quire/ready`) reports it, so a load balancer stops sending this instance traffic it
 * cannot serve, and the log names the cause instead of the rollback that followed it.
 *
 * Kept per process: a process talks to one database.
 */

/** The cause in words when `err` means the database cannot take writes at all; null for any other failure. */
export function writeBlockedCause(err: unknown): string | null {
  if (!err || typeof err !== 'object') return null;
  const { code, errno, message } = err as { code?: unknown; errno?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  switch (code) {
    case 'SQLITE_FULL':
    case '53100': // PostgreSQL disk_full
    case 'ER_RECORD_FILE_FULL':
    case 'ER_DISK_FULL':
    case 'ENOSPC':
      return 'disk full';
    case 'SQLITE_READONLY':
    case 'SQLITE_READONLY_DBMOVED':
    case 'SQLITE_READONLY_DIRECTORY':
    case '25006': // PostgreSQL read_only_sql_transaction (a hot standby)
    case 'ER_READ_ONLY_MODE':
    case 'ER_OPTION_PREVENTS_STATEMENT':
      return code === 'ER_OPTION_PREVENTS_STATEMENT' && !/read.only/i.test(text) ? null : 'read-only database';
    default:
      // MySQL/MariaDB "Got error 28 from storage engine" (ENOSPC).
      if (errno === 1030 && /\b28\b/.test(text)) return 'disk full';
      if (/No space left on device|database or disk is full/i.test(text)) return 'disk full';
      return null;
  }
}

/** How long readiness keeps reporting a blocked write without another write to find out (then it lets traffic try again). */
const REPORT_FOR_MS = 30_000;

let blocked: { cause: string; at: number } | null = null;

/** Records a write's failure; returns its blocking cause, if it had one. */
export function noteWriteFailure(err: unknown): string | null {
  const cause = writeBlockedCause(err);
  if (cause) blocked = { cause, at: Date.now() };
  return cause;
}

export function noteWriteSuccess(): void {
  blocked = null;
}

/** Why writes fail now, or null. */
export function writesBlocked(now = Date.now()): string | null {
  if (blocked && now - blocked.at > REPORT_FOR_MS) blocked = null;
  return blocked?.cause ?? null;
}
