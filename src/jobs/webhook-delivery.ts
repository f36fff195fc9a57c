import type { Db } from '../db/connect.js';
import type { JobsConfig } from '../config.js';
import { postWebhook, type OutboundResult } from './outbound.js';

/** Longest wait between two attempts of one delivery. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** `webhooks.last_triggered_error` is a 50-character column (Ghost's). */
const ERROR_COLUMN = 50;

/** What became of one attempt. */
export type Outcome = { kind: 'delivered'; status: number } | { kind: 'gone' } | { kind: 'retry' | 'failed'; status: number | null; error: string };

/**
 * How an attempt's result is judged: 2xx delivered (3xx too, when redirects ran out); 410 means the
 * receiver is gone for good, and the webhook is deleted as Ghost does; 429, 5xx, timeouts and network
 * errors are worth another try; any other answer, or a target that may not be reached, is final.
 */
function judge(result: OutboundResult): Outcome {
  if (result.kind === 'failed') {
    const final = result.code === 'BLOCKED_PRIVATE_ADDRESS' || result.code === 'URL_MISSING_INVALID';
    return { kind: final ? 'failed' : 'retry', status: null, error: `Request failed: ${result.code}` };
  }
  if (result.status >= 200 && result.status < 400) return { kind: 'delivered', status: result.status };
  if (result.status === 410) return { kind: 'gone' };
  const retry = result.status === 429 || result.status >= 500;
  return { kind: retry ? 'retry' : 'failed', status: result.status, error: 'Request failed: ERR_NON_2XX_3XX_RESPONSE' };
}

/** Exponential backoff with jitter: the n-th retry waits between half and all of base·2ⁿ⁻¹ (capped). */
export function backoffMs(baseMs: number, attempts: number, random = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A claimed delivery, with what sending it needs. */
export interface DeliveryRow {
  id: string;
  attempts: number;
  webhook_id: string;
  event: string;
  target_url: string;
  secret: string | null;
  payload: string;
}

/** Reads the claimed deliveries `ids` that `owner` still holds, with their webhook's target and their event's payload, in one query. */
export async function loadDeliveries(db: Db, owner: string, ids: readonly string[]): Promise<Map<string, DeliveryRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('outbox as o', 'o.id', 'd.outbox_id')
    .select(['d.id', 'd.attempts', 'd.webhook_id', 'd.event', 'w.target_url', 'w.secret', 'o.payload'])
    .where('d.id', 'in', ids)
    .where('d.lease_owner', '=', owner)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** One attempt's result, ready to be recorded: `status` is where the delivery stands after it. */
export interface Attempt {
  row: DeliveryRow;
  result: OutboundResult;
  outcome: Outcome;
  status: 'delivered' | 'failed' | 'pending';
  /** Milliseconds since the epoch, when the answer (or the error) came. */
  at: number;
  /** When a delivery still `pending` is tried again (ms since the epoch); null otherwise. */
  retryAt: number | null;
}

/** Sends one delivery and judges the answer against the attempt limit. */
export async function attempt(config: JobsConfig, now: () => number, row: DeliveryRow): Promise<Attempt> {
  const result = await postWebhook({
    url: row.target_url,
    body: row.payload,
    secret: row.secret,
    timeoutMs: config.webhookTimeoutMs,
    allowPrivate: config.webhookAllowPrivate,
    now: now(),
  });
  const outcome = judge(result);
  const exhausted = outcome.kind === 'retry' && row.attempts + 1 >= config.webhookMaxAttempts;
  const status = outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'failed' || exhausted ? 'failed' : 'pending';
  const at = now();
  const retryAt = status === 'pending' ? at + backoffMs(config.webhookRetryBaseMs, row.attempts + 1) : null;
  return { row, result, outcome, status, at, retryAt };
}

/**
 * What a run of deliveries last wrote to its webhook's `last_triggered_*`: the same values in the same
 * second are not written again (the row would not change).
 */
export interface WebhookBookkeeping {
  last?: string;
}

/**
 * Records the attempts of one webhook's deliveries (none answered 410), in one transaction with the webhook's
 * `last_triggered_*` as Ghost keeps them after its latest attempt. Each is recorded only while `owner` still
 * holds its lease: a result that arrives after the lease was lost is dropped (the instance that took the row
 * over sends again). Returns how many were dropped so.
 */
export async function recordAttempts(db: Db, config: JobsConfig, owner: string, attempts: readonly Attempt[], kept: WebhookBookkeeping): Promise<number> {
  const last = attempts.at(-1);
  if (!last) return 0;
  // The webhook's own timestamps are kept at whole seconds, as every timestamp Ghost shows.
  const wholeSecond = new Date(Math.floor(last.at / 1000) * 1000);
  const outcome = last.outcome as Exclude<Outcome, { kind: 'gone' }>;
  const triggered = {
    last_triggered_at: wholeSecond,
    last_triggered_status: outcome.status === null ? null : String(outcome.status),
    last_triggered_error: outcome.kind === 'delivered' ? null : outcome.error.slice(0, ERROR_COLUMN),
    updated_at: wholeSecond,
  };
  const key = JSON.stringify([last.row.webhook_id, triggered]);
  const lost = await db.transaction().execute(async (trx) => {
    let dropped = 0;
    for (const { row, result, outcome, status, at, retryAt } of attempts) {
      const attempts = row.attempts + 1;
      const recorded = await trx
        .updateTable('webhook_deliveries')
        .set({
          status,
          attempts,
          available_at: new Date(retryAt ?? at),
          lease_owner: null,
          lease_expires_at: null,
          response_status: result.kind === 'answered' ? result.status : null,
          error: 'error' in outcome ? outcome.error : null,
          latency_ms: result.latencyMs,
          response_excerpt: result.kind === 'answered' ? result.excerpt : null,
          updated_at: new Date(at),
          delivered_at: status === 'delivered' ? new Date(at) : null,
        })
        .where('id', '=', row.id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      if (Number(recorded.numUpdatedRows) !== 1) dropped++;
    }
    if (kept.last !== key) await trx.updateTable('webhooks').set(triggered).where('id', '=', last.row.webhook_id).execute();
    return dropped;
  });
  kept.last = key;
  return lost;
}

/**
 * The receiver answered 410 to a delivery `owner` holds: the webhook goes, with its deliveries, as Ghost deletes
 * it. False when the lease was lost meanwhile (the instance that took it over decides).
 */
export async function deleteGoneWebhook(db: Db, owner: string, row: DeliveryRow): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const mine = await trx.selectFrom('webhook_deliveries').select('id').where('id', '=', row.id).where('lease_owner', '=', owner).executeTakeFirst();
    if (!mine) return false;
    await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', row.webhook_id).execute();
    await trx.deleteFrom('webhooks').where('id', '=', row.webhook_id).execute();
    return true;
  });
}
