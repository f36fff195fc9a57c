import { text } from 'node:stream/consumers';
import type { Ctx, CtxBase } from '../../ctx.js';
import { jobCtx } from '../../ctx.js';
import { objectId } from '../../db/ids.js';
import { enqueueFileJob, type JobHandler } from '../../jobs/jobs.js';
import { performImport, type PreparedImport } from './members.import.js';

/** The job kind of a members CSV import too large to run during its request. */
export const MEMBERS_IMPORT_JOB = 'members-import';

/** What the job row holds: where the prepared file waits, and what the answer needs. */
interface ImportPayload {
  file: string;
  importLabel: string;
  originalImportSize: number;
}

/**
 * Queues a prepared import. The prepared file goes to private storage, not into the job row: storage is
 * where every instance of a deployment already shares its uploads (one disk, or one bucket for several
 * instances), a file streams in and out without being held whole in a database statement (MySQL's packet
 * limit), and the row stays small for the runner's claims. The file is written before the row, so a job never
 * names a missing file; it is removed when the job ends.
 */
export async function queueImport(ctx: Ctx, prepared: PreparedImport): Promise<string> {
  const file = `data/imports/members-${objectId()}.csv`;
  return enqueueFileJob(
    ctx.autocommitDb,
    ctx.storage,
    { key: file, data: prepared.csv },
    {
      kind: MEMBERS_IMPORT_JOB,
      payload: { file, importLabel: prepared.importLabel, originalImportSize: prepared.rows } satisfies ImportPayload,
      createdBy: ctx.actor?.user?.id ?? null,
      now: ctx.clock.now(),
    },
  );
}

/**
 * The runner's handler for members imports (app.ts passes it in). The import and the job's `done` commit in
 * one transaction: a job taken over after its instance died either finds nothing of the file imported or is
 * no longer pending, so no file is imported twice.
 */
export function membersImportJob(base: CtxBase): JobHandler {
  return async (job) => {
    const payload = job.payload as ImportPayload;
    const ctx = jobCtx(base);
    const csv = await text(await ctx.storage.read(payload.file));
    try {
      await performImport(ctx, csv, {
        importLabel: payload.importLabel,
        originalImportSize: payload.originalImportSize,
        progress: (value) => job.progress(value),
        complete: (db, result) => job.complete(db, result),
      });
    } catch (err) {
      // Failed for good (a failure is not retried): the file is of no more use.
      await ctx.storage.delete(payload.file).catch(() => undefined);
      throw err;
    }
    await ctx.storage.delete(payload.file).catch(() => undefined);
  };
}
