import type { Readable } from 'node:stream';
import type { Db } from '../db/connect.js';
import type { ReadDb } from '../db/read-db.js';
import type { JobRow } from '../db/schema-jobs.js';
import { objectId } from '../db/ids.js';
import type { Storage } from '../storage/storage.js';
import { figuresOf, type JobLog } from './job-log.js';

/** Claims of one job before it is given up: a job whose every run kills its instance must not loop for ever. */
export const MAX_JOB_ATTEMPTS = 3;

/** A job as its handler sees it while it runs on this instance. */
export interface RunningJob {
  readonly id: string;
  readonly kind: string;
  /** What `enqueueJob` was given. */
  readonly payload: unknown;
  /** 1 on the first run; more when an instance died running it and this one took it over. */
  readonly attempts: number;
  /**
   * Whether this instance still holds the job's lease. A job whose work has outside effects (mail sent) asks
   * before each piece after a pause: an instance that stalled past its lease must not go on beside the one
   * that took the job over.
   */
  held(): Promise<boolean>;
  /** Records how far the job got (readable by the API at once); best effort, outside any transaction. */
  progress(value: unknown): Promise<void>;
  /**
   * Marks the job done with `result` through `db`, the handler's own transaction: the work and its being done
   * commit together, so a job taken over after a crash never does its work twice. Throws `LostLeaseError`
   * (rolling the work back) when another instance holds the job now.
   */
  complete(db: Db, result: unknown): Promise<void>;
}

/**
 * Runs one kind of job. What it returns is the job's result, unless it called `complete` itself; what it
 * throws fails the job with that message (the error is the result: a job is not tried again after a failure
 * of its own, only after its instance died).
 */
export type JobHandler = ((job: RunningJob) => Promise<unknown>) & {
  /**
   * Told when a job of this kind has ended failed, by its own error or given up after its instances died
   * `MAX_JOB_ATTEMPTS` times, so that the rows it was working on say so instead of staying half-done.
   */
  readonly failed?: (payload: unknown, error: string) => Promise<void>;
};

/** The handlers this runner knows, by kind (passed in by app.ts: jobs/ imports no resource). */
export type JobHandlers = Readonly<Record<string, JobHandler>>;

export class LostLeaseError extends Error {
  override name = 'LostLeaseError';
}

export interface NewJob {
  kind: string;
  payload: unknown;
  createdBy: string | null;
  now: Date;
}

/** Adds a job, due at once; `db` may be a transaction (the job exists only if the write that asked for it commits). */
export async function enqueueJob(db: Db, job: NewJob): Promise<string> {
  const id = objectId();
  await db
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      status: 'pending',
      payload: JSON.stringify(job.payload),
      progress: null,
      result: null,
      error: null,
      attempts: 0,
      available_at: job.now,
      lease_owner: null,
      lease_expires_at: null,
      created_by: job.createdBy,
      created_at: job.now,
      updated_at: job.now,
      finished_at: null,
    })
    .execute();
  return id;
}

/**
 * Adds a job whose input is a file waiting in private storage (which every instance of a deployment shares).
 * The file is written before the row, so a job never names a missing file, and removed when the row is not added.
 */
export async function enqueueFileJob(db: Db, storage: Storage, file: { key: string; data: Buffer | string | Readable }, job: NewJob): Promise<string> {
  await storage.write(file.key, file.data, { private: true });
  try {
    return await enqueueJob(db, job);
  } catch (err) {
    await storage.delete(file.key).catch(() => undefined);
    throw err;
  }
}

export function findJob(db: ReadDb, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What the API shows of a job's state: `running` is a pending job whose lease still holds. */
export function jobState(row: JobRow, now: Date): 'pending' | 'running' | 'done' | 'failed' {
  if (row.status !== 'pending') return row.status;
  return row.lease_expires_at && row.lease_expires_at > now ? 'running' : 'pending';
}

const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
export const jobPayload = (row: JobRow) => parsed(row.payload);
export const jobProgress = (row: JobRow) => parsed(row.progress);
export const jobResult = (row: JobRow) => parsed(row.result);

async function finish(db: Db, id: string, owner: string, now: Date, values: Pick<JobRow, 'status' | 'result' | 'error'>): Promise<boolean> {
  const updated = await db
    .updateTable('jobs')
    .set({ ...values, lease_owner: null, lease_expires_at: null, updated_at: now, finished_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export interface RunContext {
  db: Db;
  owner: string;
  now: () => Date;
  handlers: JobHandlers;
  log: JobLog;
}

/**
 * Runs a job this instance has just claimed (the claim counted as an attempt) and records how it ended, with a
 * log line when it starts, at each progress it reports, and when it ends (its result's figures, or its error).
 */
export async function runJob(run: RunContext, id: string): Promise<void> {
  const { db, owner, now, handlers, log } = run;
  const row = await db
    .updateTable('jobs')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), updated_at: now() }))
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst()
    .then(() => findJob(db, id));
  if (!row || row.lease_owner !== owner || row.status !== 'pending') return;
  const handler = handlers[row.kind];
  if (!handler) return;
  const started = performance.now();
  const line = (extra: object = {}) => ({ job: row.kind, job_id: id, attempt: row.attempts, ms: Math.round(performance.now() - started), ...extra });
  const failed = async (error: string) => {
    if (!(await finish(db, id, owner, now(), { status: 'failed', result: null, error: error.slice(0, 2000) }))) return;
    await handler.failed?.(jobPayload(row), error).catch((err: unknown) => log.error(line({ err }), 'recording a failed background job failed'));
  };
  if (row.attempts > MAX_JOB_ATTEMPTS) {
    log.error(line(), `background job given up after ${MAX_JOB_ATTEMPTS} attempts`);
    await failed(`given up after ${MAX_JOB_ATTEMPTS} attempts`);
    return;
  }
  log.info(line(), 'background job started');
  let completed = false;
  let completedWith: unknown = null;
  const job: RunningJob = {
    id,
    kind: row.kind,
    payload: jobPayload(row),
    attempts: row.attempts,
    held: async () => {
      const leased = await db
        .selectFrom('jobs')
        .select('id')
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('lease_owner', '=', owner)
        .where('lease_expires_at', '>', now())
        .executeTakeFirst();
      return leased !== undefined;
    },
    progress: async (value) => {
      log.info(line(figuresOf(value)), 'background job progress');
      await db
        .updateTable('jobs')
        .set({ progress: JSON.stringify(value), updated_at: now() })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .execute();
    },
    complete: async (trx, result) => {
      if (!(await finish(trx, id, owner, now(), { status: 'done', result: JSON.stringify(result ?? null), error: null }))) {
        throw new LostLeaseError(`job ${id} is no longer leased to ${owner}`);
      }
      completed = true;
      completedWith = result;
    },
  };
  try {
    const result = await handler(job);
    if (!completed) await finish(db, id, owner, now(), { status: 'done', result: JSON.stringify(result ?? null), error: null });
    log.info(line(figuresOf(completed ? completedWith : result)), 'background job done');
  } catch (err) {
    // Another instance runs it now; what it does decides the outcome.
    if (err instanceof LostLeaseError) {
      log.warn(line(), 'background job taken over by another instance');
      return;
    }
    log.error(line({ err }), 'background job failed');
    await failed(err instanceof Error ? err.message : String(err));
  }
}
