import { Migrator, type MigrationResultSet } from 'kysely';
import type { Connection } from './connect.js';
import { MIGRATIONS } from './migrations/index.js';

function migratorFor(connection: Connection): Migrator {
  const migrations = Object.fromEntries(MIGRATIONS.map(([name, factory]) => [name, factory(connection.engine.types)]));
  return new Migrator({
    db: connection.db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'quire_migrations',
    migrationLockTableName: 'quire_migrations_lock',
  });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const what = failed ? `migration ${failed.migrationName} failed` : 'migrations could not start';
    throw new Error(`${what}: ${(result.error as Error).message}`, { cause: result.error });
  }
  return (result.results ?? []).map((r) => r.migrationName);
}

/** Applies every pending migration; several instances starting at once are serialised by Kysely's lock table. */
export async function migrateToLatest(connection: Connection): Promise<string[]> {
  return unwrap(await migratorFor(connection).migrateToLatest());
}

/** Rolls back every migration (tests of the down path). */
export async function migrateDownAll(connection: Connection): Promise<string[]> {
  const migrator = migratorFor(connection);
  const undone: string[] = [];
  for (;;) {
    const names = unwrap(await migrator.migrateDown());
    if (names.length === 0) return undone;
    undone.push(...names);
  }
}
