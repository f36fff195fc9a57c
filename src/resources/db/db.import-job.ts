import { createReadStream } from 'node:fs';
import type { Ctx, CtxBase } from '../../ctx.js';
import { jobCtx } from '../../ctx.js';
import { objectId } from '../../db/ids.js';
import { extensionOf, type UploadedFile } from '../../http/upload.js';
import { enqueueFileJob, LostLeaseError, type JobHandler } from '../../jobs/jobs.js';
import { readStoredImportFile } from './db.file.js';
import { importGhostExport } from './db.import.js';

/** The job kind of a `POST /db/` file too large to import during its request (`DB_IMPORT_INLINE_BYTES`). */
export const DB_IMPORT_JOB = 'db-import';

/** What the job row holds: where the upload waits in private storage. */
interface ImportPayload {
  file: string;
}

/**
 * Queues an uploaded `.json` or `.zip` as it was received (a zip's images are stored by the job). It waits in
 * private storage, which every instance of a deployment shares, written before the job row so that a job
 * never names a missing file (see members.import-job.ts for why storage and not the row).
 */
export async function queueImport(ctx: Ctx, upload: UploadedFile): Promise<string> {
  const file = `data/imports/db-${objectId()}${extensionOf(upload.name)}`;
  return enqueueFileJob(
    ctx.autocommitDb,
    ctx.storage,
    { key: file, data: createReadStream(upload.path) },
    { kind: DB_IMPORT_JOB, payload: { file } satisfies ImportPayload, createdBy: ctx.actor?.user?.id ?? null, now: ctx.clock.now() },
  );
}

/**
 * The runner's handler for `POST /db/` imports (app.ts passes it in). The import and the job's `done` commit in
 * one transaction, with the import's `site.changed`: a job taken over after its instance died finds either
 * nothing of the file imported or the job no longer pending, so no file is imported twice. A failure leaves
 * nothing of the rows (images of a zip, stored first, stay, as in a request) and the job `failed` with the reason.
 */
export function dbImportJob(base: CtxBase): JobHandler {
  return async (job) => {
    const { file } = job.payload as ImportPayload;
    const ctx = jobCtx(base);
    try {
      await job.progress({ stage: 'reading' });
      const parsed = await readStoredImportFile(ctx.storage, file);
      await job.progress({ stage: 'importing' });
      await importGhostExport(ctx, parsed, { complete: (db, report) => job.complete(db, report) });
    } catch (err) {
      // Another instance runs the job now and needs the file; any other failure is final (not retried).
      if (!(err instanceof LostLeaseError)) await ctx.storage.delete(file).catch(() => undefined);
      throw err;
    }
    await ctx.storage.delete(file).catch(() => undefined);
  };
}
