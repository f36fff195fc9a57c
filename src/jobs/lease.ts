import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Engine } from '../db/engine.js';

/** Tables of work the runner claims: each row has `status`, `available_at`, `lease_owner`, `lease_expires_at`. */
export type LeasedTable = 'outbox' | 'webhook_deliveries' | 'jobs';

export interface ClaimRequest {
  table: LeasedTable;
  owner: string;
  now: Date;
  leaseMs: number;
  limit: number;
  /** A further condition on the candidates (deliveries: only the first pending one of each webhook; jobs: of a kind this runner knows). */
  extra?: RawBuilder<SqlBool>;
  /**
   * Only these rows are candidates (deliveries: each webhook's first in line), looked up by key: with the usual
   * order the planners walk every due row through the status index, however short the list.
   */
  among?: readonly string[];
}

/**
 * Claims up to `limit` due rows, oldest first: pending, available, and not leased, or leased by an
 * instance whose lease ran out (it crashed or hung). Returns the ids now leased to `owner`.
 *
 * Where the engine has `FOR UPDATE SKIP LOCKED`, the candidates are locked and leased in one transaction,
 * and concurrent claimers pass over each other's rows. Elsewhere (SQLite) each candidate is leased by an
 * UPDATE that repeats the conditions: of two instances racing for a row, only one changes it.
 */
export async function claimDue(db: Db, engine: Engine, request: ClaimRequest): Promise<string[]> {
  const { owner, now, leaseMs, limit, extra, among } = request;
  if (among?.length === 0) return [];
  // Every leased table has the columns used here; typed as one of them for the query builder.
  const table = request.table as 'outbox';
  const lease = { lease_owner: owner, lease_expires_at: new Date(now.getTime() + leaseMs) };
  const due = sql<SqlBool>`${sql.ref(`${table}.status`)} = 'pending' and ${sql.ref(`${table}.available_at`)} <= ${now} and (${sql.ref(
    `${table}.lease_expires_at`,
  )} is null or ${sql.ref(`${table}.lease_expires_at`)} < ${now})${extra ? sql` and ${extra}` : sql``}`;

  if (engine.skipLocked) {
    return db.transaction().execute(async (trx) => {
      const candidates = trx.selectFrom(table).select('id').where(due);
      const ordered = among ? candidates.where('id', 'in', among) : candidates.orderBy('available_at').orderBy('id');
      const rows = await ordered.limit(limit).forUpdate().skipLocked().execute();
      const ids = rows.map((row) => row.id);
      if (ids.length > 0) await trx.updateTable(table).set(lease).where('id', 'in', ids).execute();
      return ids;
    });
  }
  const candidates =
    among ?? (await db.selectFrom(table).select('id').where(due).orderBy('available_at').orderBy('id').limit(limit).execute()).map((row) => row.id);
  const claimed: string[] = [];
  for (const id of candidates) {
    if (claimed.length === limit) break;
    const result = await db.updateTable(table).set(lease).where('id', '=', id).where(due).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) claimed.push(id);
  }
  return claimed;
}

/** Extends the leases `owner` still holds on `ids` (work that takes longer than one lease). */
export async function renewLeases(db: Db, table: LeasedTable, owner: string, ids: readonly string[], until: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable(table as 'outbox')
    .set({ lease_expires_at: until })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Gives back every lease `owner` holds on pending rows, so another instance picks them up at once. */
export async function releaseLeases(db: Db, table: LeasedTable, owner: string): Promise<void> {
  await db
    .updateTable(table as 'outbox')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('lease_owner', '=', owner)
    .where('status', '=', 'pending')
    .execute();
}

/** Gives back one row's lease (its work failed and should be tried again soon). */
export async function releaseLease(db: Db, table: LeasedTable, owner: string, id: string): Promise<void> {
  await db
    .updateTable(table as 'outbox')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}
