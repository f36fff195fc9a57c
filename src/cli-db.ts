import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from './config.js';
import { connect, type Connection } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { backupDatabase } from './db/backup.js';
import { jobCtx, type Ctx } from './ctx.js';
import { ctxBaseFromConfig } from './ctx-base.js';
import { stopWorkerPool } from './workers/pool.js';
import { exportResponse } from './resources/db/db.export.js';
import { exportArchive } from './resources/db/db.export-archive.js';
import { readImportFile } from './resources/db/db.file.js';
import { importGhostExport } from './resources/db/db.import.js';

/** Tables `quire export` adds to Ghost's default export, so a move between sites keeps the members. */
const MEMBER_TABLES = ['members', 'labels', 'members_labels', 'members_newsletters', 'members_products'];

async function withCtx<T>(config: Config, work: (ctx: Ctx, connection: Connection) => Promise<T>): Promise<T> {
  const connection = connect(config.databaseUrl, { poolSize: 2, statementTimeoutMs: 0 }); // an operator's command: no statement timeout
  try {
    await migrateToLatest(connection);
    const log = (details: object, message: string) => console.error(`quire: ${message}`, details);
    return await work(jobCtx(ctxBaseFromConfig(config, connection, { info: log, error: log })), connection);
  } finally {
    await connection.close();
    await stopWorkerPool();
  }
}

/**
 * `quire export --file F`: the site as `GET /db/` answers it, with members; or, when F ends in `.zip`, Ghost 6's
 * archive of it (the export, routes.yaml, the redirects file and the uploaded themes; `db.export-archive.ts`),
 * which a fresh Quire imports whole. Written as it is read (flat memory) to a temporary name beside F and renamed
 * when complete, so F is never half-written; a failed write removes the temporary file.
 */
export async function runExport(config: Config, file: string): Promise<string[]> {
  return withCtx(config, async (ctx) => {
    const body =
      path.extname(file).toLowerCase() === '.zip' ? exportArchive(ctx, MEMBER_TABLES) : Readable.from(exportResponse(ctx.db, ctx.clock, MEMBER_TABLES));
    const partial = `${file}.partial`;
    try {
      await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
      await rename(partial, file);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    return [`exported to ${file} (${(await stat(file)).size} bytes)`];
  });
}

/** `quire import --file F`: a Ghost export (`.json`, or `.zip` with images), as `POST /db/` imports it. */
export async function runImport(config: Config, file: string): Promise<string[]> {
  return withCtx(config, async (ctx) => {
    const { size } = await stat(file);
    const parsed = await readImportFile({ path: file, name: path.basename(file), type: 'application/octet-stream', size }, ctx.storage);
    const report = await importGhostExport(ctx, parsed);
    const lines = Object.entries(report.counts).map(([table, count]) => `imported ${table}: ${count}`);
    for (const problem of report.problems) lines.push(`skipped (${problem.help}): ${problem.message} ${problem.context.slice(0, 200)}`);
    return lines;
  });
}

/**
 * `quire backup --file F`: a consistent copy of the whole database taken while the service runs (SQLite's
 * online backup API); for PostgreSQL and MySQL/MariaDB, how to take one with their own tools.
 */
export async function runBackup(config: Config, file: string): Promise<string[]> {
  await backupDatabase(config.databaseUrl, file);
  return [`database copied to ${file}`];
}
