import type { Db } from '../db/connect.js';
import type { JobsConfig } from '../config.js';
import { releaseLease } from './lease.js';
import { claimInLine } from './webhook-batch.js';
import { attempt, deleteGoneWebhook, loadDeliveries, recordAttempts, type Attempt, type WebhookBookkeeping } from './webhook-delivery.js';
import { logAttempt, type JobLog } from './job-log.js';

/** Deliveries of one webhook leased by one claim. */
const BATCH = 50;

export interface LaneDeps {
  db: Db;
  config: JobsConfig;
  owner: string;
  leaseMs: number;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Every delivery this instance holds a lease on (the runner renews them): the lane adds and removes its own. */
  held: Set<string>;
  stopping: () => boolean;
  log: JobLog;
}

/**
 * Sends one webhook's deliveries in event order, from `head` (leased by the caller as first in line) for as
 * long as more of them are due, without waiting for a claim round between two: each is sent as soon as the
 * previous one is answered, while the answers are recorded behind it, several in one transaction, and the
 * next deliveries in line are leased while the last ones are recorded.
 *
 * Once one is not delivered and is to be tried again, the rest are given back unsent: they wait behind it, in
 * order. A final failure does not hold the later ones back (Ghost would have sent them anyway). When the
 * runner stops, the lane ends after the delivery it is sending.
 */
export async function runLane(deps: LaneDeps, head: string): Promise<void> {
  const { db, owner, held } = deps;
  const recorder = new Recorder(deps);
  // Leased and not sent yet: given back however the lane ends.
  let unsent = [head];
  try {
    while (unsent.length > 0) {
      const batch = unsent;
      const rows = await loadDeliveries(db, owner, batch);
      const webhookId = rows.get(batch[0]!)?.webhook_id;
      let more = webhookId !== undefined;
      for (const id of batch) {
        const row = rows.get(id);
        if (!row || recorder.stopped || (deps.stopping() && unsent.length < batch.length)) {
          more = false;
          break;
        }
        const tried = await attempt(deps.config, deps.now, row);
        logAttempt(deps.log, tried);
        unsent = unsent.slice(1);
        if (tried.outcome.kind === 'gone') {
          await recorder.idle();
          await deleteGoneWebhook(db, owner, row);
          held.delete(id);
          more = false;
          break;
        }
        recorder.add(tried);
        if (tried.status === 'pending') {
          more = false;
          break;
        }
      }
      if (!more || unsent.length > 0 || deps.stopping()) break;
      const now = new Date(deps.now());
      const [next] = await Promise.all([claimInLine(db, owner, webhookId!, new Set(batch), now, deps.leaseMs, BATCH), recorder.idle()]);
      for (const id of next) held.add(id);
      unsent = next;
      if (recorder.stopped) break;
    }
  } finally {
    await recorder.idle();
    await giveBack(deps, unsent);
  }
}

/** Gives back leases of deliveries not sent: tried again at the next claim rather than after the lease runs out. */
async function giveBack(deps: LaneDeps, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    deps.held.delete(id);
    await releaseLease(deps.db, 'webhook_deliveries', deps.owner, id).catch(() => undefined);
  }
}

/**
 * Records a lane's attempts behind its sending: what was answered while one transaction ran goes in the next.
 * Stops the lane when a lease turned out lost (another instance took the webhook's deliveries over) or a
 * record failed (its deliveries keep their leases, run out, and are sent again: at least once).
 */
class Recorder {
  readonly #deps: LaneDeps;
  readonly #kept: WebhookBookkeeping = {};
  #queue: Attempt[] = [];
  #running: Promise<void> | null = null;
  stopped = false;

  constructor(deps: LaneDeps) {
    this.#deps = deps;
  }

  add(tried: Attempt): void {
    this.#queue.push(tried);
    this.#running ??= this.#drain();
  }

  /** Resolves once everything added is recorded (or dropped). */
  async idle(): Promise<void> {
    await this.#running;
  }

  async #drain(): Promise<void> {
    const { db, config, owner, held, log } = this.#deps;
    while (this.#queue.length > 0) {
      const attempts = this.#queue;
      this.#queue = [];
      try {
        const lost = await recordAttempts(db, config, owner, attempts, this.#kept);
        if (lost > 0) this.stopped = true;
      } catch (err) {
        log.error({ err, deliveries: attempts.map((a) => a.row.id) }, 'recording webhook deliveries failed');
        this.stopped = true;
      }
      for (const { row } of attempts) held.delete(row.id);
    }
    this.#running = null;
  }
}
