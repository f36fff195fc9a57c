import type { Db } from '../db/connect.js';
import type { JobsConfig } from '../config.js';
import { postWebhook, type OutboundResult } from './outbound.js';

/** Longest wait between two attempts of one delivery. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** `webhooks.last_triggered_error` is a 50-character column (Ghost's). */
const ERROR_COLUMN = 50;

/** What became of one attempt. */
type Outcome = { kind: 'delivered'; status: number } | { kind: 'gone' } | { kind: 'retry' | 'failed'; status: number | null; error: string };

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

export interface DeliveryDeps {
  db: Db;
  config: JobsConfig;
  /** Milliseconds since the epoch. */
  now: () => number;
}

/** Where a delivery stands after an attempt: `lost` when the lease was no longer ours (nothing recorded). */
export type AttemptResult = 'delivered' | 'failed' | 'retry' | 'gone' | 'lost';

/**
 * What this run of deliveries last wrote to its webhook's `last_triggered_*`: the same values in the same
 * second are not written again, so that a delivery usually costs one UPDATE (the row would not change).
 */
export interface WebhookBookkeeping {
  last?: string;
}

/**
 * Makes one attempt of a delivery the caller has leased, then records it (with the webhook's bookkeeping, in
 * one transaction) only while `owner` still holds the lease (a result that arrives after the lease was lost is dropped: the instance
 * that took the row over sends again). Also keeps the webhook's `last_triggered_*` as Ghost does.
 */
export async function attemptDelivery(deps: DeliveryDeps, owner: string, deliveryId: string, kept: WebhookBookkeeping = {}): Promise<AttemptResult> {
  const { db, config } = deps;
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('outbox as o', 'o.id', 'd.outbox_id')
    .select(['d.id', 'd.attempts', 'd.webhook_id', 'w.target_url', 'w.secret', 'o.payload'])
    .where('d.id', '=', deliveryId)
    .where('d.lease_owner', '=', owner)
    .executeTakeFirst();
  if (!row) return 'lost';
  const result = await postWebhook({
    url: row.target_url,
    body: row.payload,
    secret: row.secret,
    timeoutMs: config.webhookTimeoutMs,
    allowPrivate: config.webhookAllowPrivate,
    now: deps.now(),
  });
  const outcome = judge(result);
  const at = new Date(deps.now());
  // The webhook's own timestamps are kept at whole seconds, as every timestamp Ghost shows.
  const wholeSecond = new Date(Math.floor(at.getTime() / 1000) * 1000);
  const attempts = row.attempts + 1;
  const exhausted = outcome.kind === 'retry' && attempts >= config.webhookMaxAttempts;
  const status = outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'failed' || exhausted ? 'failed' : 'pending';
  const settled: AttemptResult = status === 'pending' ? 'retry' : status;
  // Recorded only while `owner` still holds the lease.
  const record = (trx: Db) =>
    trx
      .updateTable('webhook_deliveries')
      .set({
        status,
        attempts,
        available_at: status === 'pending' ? new Date(at.getTime() + backoffMs(config.webhookRetryBaseMs, attempts)) : at,
        lease_owner: null,
        lease_expires_at: null,
        response_status: result.kind === 'answered' ? result.status : null,
        error: 'error' in outcome ? outcome.error : null,
        latency_ms: result.latencyMs,
        response_excerpt: result.kind === 'answered' ? result.excerpt : null,
        updated_at: at,
        delivered_at: status === 'delivered' ? at : null,
      })
      .where('id', '=', deliveryId)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
  const triggered =
    outcome.kind === 'gone'
      ? null
      : {
          last_triggered_at: wholeSecond,
          last_triggered_status: outcome.status === null ? null : String(outcome.status),
          last_triggered_error: outcome.kind === 'delivered' ? null : outcome.error.slice(0, ERROR_COLUMN),
          updated_at: wholeSecond,
        };
  const key = JSON.stringify([row.webhook_id, triggered]);
  if (triggered && kept.last === key) return Number((await record(db)).numUpdatedRows) === 1 ? settled : 'lost';
  const recorded = await db.transaction().execute(async (trx): Promise<AttemptResult> => {
    if (!triggered) {
      const mine = await trx.selectFrom('webhook_deliveries').select('id').where('id', '=', deliveryId).where('lease_owner', '=', owner).executeTakeFirst();
      if (!mine) return 'lost';
      await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', row.webhook_id).execute();
      await trx.deleteFrom('webhooks').where('id', '=', row.webhook_id).execute();
      return 'gone';
    }
    if (Number((await record(trx)).numUpdatedRows) !== 1) return 'lost';
    await trx.updateTable('webhooks').set(triggered).where('id', '=', row.webhook_id).execute();
    return settled;
  });
  if (recorded === settled) kept.last = key;
  return recorded;
}
