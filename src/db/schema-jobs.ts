/** Row types of the jobs migration (0014). */
export interface JobTables {
  jobs: JobRow;
}

/**
 * One piece of background work of any kind (a members CSV import, a site import), run by the job runner's
 * handler for its `kind`. Claimed with a lease like the outbox: `lease_owner` until `lease_expires_at`; a job
 * whose instance died is claimed again once its lease runs out. `status` stays `pending` while it runs.
 */
export interface JobRow {
  id: string;
  /** Which handler runs it, e.g. `members-import`. */
  kind: string;
  status: 'pending' | 'done' | 'failed';
  /** JSON: what the handler needs (where the file is, the options of the request). */
  payload: string;
  /** JSON the handler reports while it runs (rows read so far); null before it starts. */
  progress: string | null;
  /** JSON the handler returns when done; null until then. */
  result: string | null;
  /** Why it failed, for the operator; null unless `failed`. */
  error: string | null;
  /** Claims so far, the one running included: a job that keeps killing its instance is given up. */
  attempts: number;
  available_at: Date;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  /** The staff user who asked for it (null for an integration). */
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}
