import type { SqliteDriver } from './sqlite-driver.js';

/** How long after a write the write-ahead log is copied into the database file. */
export const CHECKPOINT_AFTER_MS = 500;

/**
 * The write-ahead log's checkpoints, run on a timer instead of inside the commit that fills the log. SQLite by
 * default checkpoints when a commit leaves 1,000 pages or more in the log, inside that commit: the request
 * whose write crossed the mark waits for the whole log to be copied into the database file and synced (a
 * 12 MB post's save: 14,000 pages, 0.23 s of its answer, issue 29). Here the first write after a checkpoint
 * starts a timer, and the checkpoint runs when it ends: at most one a half-second under steady writes, each
 * copying what that time wrote, and none while nothing is written. PASSIVE: it never waits for a reader.
 * `stop` (closing the database) runs a pending one at once.
 */
export function delayedCheckpoints(driver: SqliteDriver): { wrote(): void; stop(): void } {
  driver.exec('PRAGMA wal_autocheckpoint = 0');
  let timer: NodeJS.Timeout | undefined;
  const checkpoint = () => {
    timer = undefined;
    try {
      driver.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch (err) {
      // SQLITE_LOCKED: the timer ended between a transaction's statements (the connection is shared); its commit
      // or rollback starts the timer again. Anything else (a full disk) leaves the log whole for the next write's.
      if ((err as { code?: string }).code !== 'SQLITE_LOCKED') console.error(`quire: SQLite checkpoint failed: ${(err as Error).message}`);
    }
  };
  const arm = () => {
    // unref: a pending checkpoint never keeps the process alive; closing the database does the work.
    timer ??= setTimeout(checkpoint, CHECKPOINT_AFTER_MS).unref();
  };
  return {
    wrote: arm,
    // Before the connection closes: SQLite checkpoints at close only when it is the file's last connection, and a
    // command (`quire import`) that wrote beside a running server would otherwise leave its pages in the log.
    stop: () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      checkpoint();
    },
  };
}
