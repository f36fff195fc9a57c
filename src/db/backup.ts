import { openSqliteDriver } from './sqlite-driver.js';

/** What `quire backup` tells an operator of a database server, whose own tools make a consistent copy. */
export class ServerBackupAdvice extends Error {
  override name = 'ServerBackupAdvice';
}

/**
 * A consistent copy of the whole database while the service keeps running. The embedded database is copied
 * with SQLite's online backup API; PostgreSQL and MySQL/MariaDB are backed up with their own tools, which
 * this answers with (`ServerBackupAdvice`).
 */
export async function backupDatabase(databaseUrl: string, destination: string): Promise<void> {
  if (databaseUrl.startsWith('sqlite:')) {
    const driver = await openSqliteDriver(databaseUrl.slice('sqlite:'.length));
    try {
      await driver.backup(destination);
    } finally {
      driver.close();
    }
    return;
  }
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1) || '<database>';
  if (/^postgres(ql)?:$/.test(url.protocol)) {
    throw new ServerBackupAdvice(
      `PostgreSQL is backed up with its own tool, consistent while the service runs:\n  pg_dump --format=custom --file=${destination} "${redacted(url)}"\nRestore with: pg_restore --clean --dbname=<url> ${destination}`,
    );
  }
  throw new ServerBackupAdvice(
    `MySQL/MariaDB is backed up with its own tool, consistent while the service runs (InnoDB):\n  mysqldump --single-transaction --routines --host=${url.hostname} --port=${url.port || 3306} --user=${decodeURIComponent(url.username)} -p ${name} > ${destination}\nRestore with: mysql ${name} < ${destination}`,
  );
}

/** The URL without its password: advice is printed, and may be pasted into a ticket. */
function redacted(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = '****';
  return copy.href;
}
