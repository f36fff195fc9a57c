import type { Ctx } from '../ctx.js';
import type { JobRow } from '../db/schema-jobs.js';
import { errors } from '../errors.js';
import { isoDate } from '../content/dates.js';
import { findJob, jobProgress, jobResult, jobState } from '../jobs/jobs.js';
import { assertIdParam } from './validate.js';

/**
 * A job as Quire's job-state endpoints show it (`GET /members/upload/:id/`, `GET /db/import/:id/`): an
 * addition to Ghost's API, which only e-mails a report when a background import ends.
 */
export function presentJob(row: JobRow, now: Date) {
  return {
    id: row.id,
    kind: row.kind,
    status: jobState(row, now),
    progress: jobProgress(row),
    result: jobResult(row),
    error: row.error,
    created_at: isoDate(row.created_at),
    updated_at: isoDate(row.updated_at),
    finished_at: isoDate(row.finished_at),
  };
}

/** The answer of a job-state endpoint: `{"jobs":[job]}`, or Ghost's 404 for an id that is no job of `kind`. */
export async function importJobAnswer(ctx: Ctx, id: string, kind: string) {
  assertIdParam(id);
  const row = await findJob(ctx.db, id);
  if (!row || row.kind !== kind) throw errors.notFound('Import not found.');
  return { jobs: [presentJob(row, new Date(ctx.clock.epochMs()))] };
}
