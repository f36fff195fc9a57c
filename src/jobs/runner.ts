import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Engine } from '../db/engine.js';
import type { Clock } from '../clock.js';
import type { JobsConfig } from '../config.js';
import { claimDue, releaseLease, releaseLeases, renewLeases } from './lease.js';
import { fanOut, fanOutAll, firstInLine } from './webhook-fanout.js';
import { webhookHeads } from './webhook-batch.js';
import { runLane } from './webhook-lane.js';
import { pruneHistory } from './prune.js';
import { runJob, type JobHandlers } from './jobs.js';
import type { JobLog } from './job-log.js';

/** Webhooks one instance sends to at once (each webhook's deliveries go one after the other). */
const MAX_IN_FLIGHT = 8;
/** Outbox rows fanned out per round. */
const FAN_OUT_BATCH = 200;
/** Background jobs (imports) one instance runs at once: each is long and heavy, and others may share the load. */
const MAX_JOBS_IN_FLIGHT = 1;
/** How often an instance prunes old history. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface JobRunnerOptions {
  db: Db;
  engine: Engine;
  clock: Clock;
  config: JobsConfig;
  /** The app's logger: a line per piece of work done (job-log.ts), and failures of a round. */
  log: JobLog;
  /** Names this instance's leases; unique per process by default. */
  owner?: string;
  /** How long a claim holds before another instance may take the row over (renewed while the work runs). */
  leaseMs?: number;
  /**
   * Publishes the scheduled posts and pages due by `now`, each exactly once across instances (the posts
   * resource's conditional update; passed in by app.ts, as jobs/ imports no resource). Returns those it published.
   */
  publishDue?: (now: Date) => Promise<readonly PublishedPost[]>;
  /**
   * Handlers of background jobs (the `jobs` table) by kind, supplied by the resources through app.ts; a job of
   * a kind not listed is left for an instance that knows it.
   */
  jobs?: JobHandlers;
}

/** A scheduled post or page the runner published, for its log line. */
export interface PublishedPost {
  id: string;
  type: string;
  /** When it was scheduled for. */
  publishedAt: Date;
  /** How long its publishing transaction took. */
  ms: number;
}

/**
 * The job runner: claims due rows from the database with a lease, so that several instances share the work
 * and each row is handled by one of them; a row whose instance died is taken over when its lease expires.
 * It publishes scheduled posts when they fall due (at start too, so none is missed while no instance ran),
 * fans outbox rows out into deliveries and attempts them, each webhook's in event order, and runs background
 * jobs (large imports) with the handler of their kind. Nothing here runs on a request's path.
 */
export class JobRunner {
  readonly owner: string;
  readonly #options: JobRunnerOptions;
  readonly #leaseMs: number;
  /** The webhooks being sent to (`runLane`), by webhook id. */
  readonly #inFlight = new Map<string, Promise<void>>();
  /** Every delivery this instance holds a lease on: those being sent and those waiting in a batch. */
  readonly #held = new Set<string>();
  /** Background jobs running here, by id (their leases are renewed with the deliveries'). */
  readonly #jobs = new Map<string, Promise<void>>();
  #running: Promise<void> | null = null;
  #stopping = false;
  #wake: (() => void) | null = null;
  /** Set by a nudge that came while a round ran: the next round starts without waiting. */
  #nudged = false;
  #renewTimer: NodeJS.Timeout | null = null;
  #prunedAt = 0;
  #publishedAt = 0;

  constructor(options: JobRunnerOptions) {
    this.#options = options;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    // Renewed at a third of its length while the work runs.
    this.#leaseMs = options.leaseMs ?? options.config.leaseMs;
  }

  start(): void {
    if (this.#running) return;
    this.#stopping = false;
    this.#running = this.#loop();
    this.#renewTimer = setInterval(() => void this.#renew(), Math.max(10, Math.floor(this.#leaseMs / 3)));
    this.#renewTimer.unref();
  }

  /** Looks for work now instead of at the next poll (after a write that recorded events, say). */
  nudge(): void {
    this.#nudged = true;
    this.#wake?.();
  }

  /** Stops claiming, lets deliveries in flight finish, then gives back the leases still held. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#stopping = true;
    this.#wake?.();
    await this.#running;
    await Promise.allSettled([...this.#inFlight.values(), ...this.#jobs.values()]);
    if (this.#renewTimer) clearInterval(this.#renewTimer);
    this.#running = null;
    const { db } = this.#options;
    await releaseLeases(db, 'outbox', this.owner);
    await releaseLeases(db, 'webhook_deliveries', this.owner);
    await releaseLeases(db, 'jobs', this.owner);
  }

  async #loop(): Promise<void> {
    while (!this.#stopping) {
      let busy = false;
      this.#nudged = false;
      try {
        busy = await this.#round();
      } catch (err) {
        this.#options.log.error({ err }, 'job runner round failed');
      }
      if (!busy && !this.#nudged && !this.#stopping) await this.#sleep(this.#options.config.pollMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = null;
        done();
      };
    });
  }

  /** One round: fan out due events, start due deliveries. True when it found work (look again at once). */
  async #round(): Promise<boolean> {
    const { db, engine, clock } = this.#options;
    const now = () => new Date(clock.epochMs());
    // First, so that the events of a publish are fanned out in the same round.
    const published = await this.#publishNow();
    const events = await claimDue(db, engine, { table: 'outbox', owner: this.owner, now: now(), leaseMs: this.#leaseMs, limit: FAN_OUT_BATCH });
    await this.#fanOut(events, now());
    await this.#pruneNow();
    const jobs = await this.#startJobs(now());
    const room = MAX_IN_FLIGHT - this.#inFlight.size;
    if (room <= 0) return events.length > 0 || published > 0 || jobs > 0;
    // A webhook this instance already sends to is left to its lane: the lane leases its next deliveries itself
    // (and, sharing this instance's lease owner, would give back one claimed here as if it were its own).
    const heads = new Map([...(await webhookHeads(db))].filter(([, webhookId]) => !this.#inFlight.has(webhookId)));
    const deliveries = await claimDue(db, engine, {
      table: 'webhook_deliveries',
      owner: this.owner,
      now: now(),
      leaseMs: this.#leaseMs,
      limit: room,
      extra: firstInLine,
      among: [...heads.keys()],
    });
    for (const id of deliveries) {
      const webhookId = heads.get(id)!;
      this.#held.add(id);
      const { config, log } = this.#options;
      const lane = { db, config, log, owner: this.owner, leaseMs: this.#leaseMs, held: this.#held, now: () => clock.epochMs(), stopping: () => this.#stopping };
      const sending = runLane(lane, id)
        .catch((err: unknown) => this.#options.log.error({ err, delivery: id }, 'webhook delivery failed'))
        .finally(() => {
          this.#inFlight.delete(webhookId);
          // The webhook's next delivery may be due now.
          this.nudge();
        });
      this.#inFlight.set(webhookId, sending);
    }
    return events.length > 0 || deliveries.length > 0 || published > 0 || jobs > 0;
  }

  /** Claims due background jobs of the kinds this runner knows, while it has room, and runs them beside the rounds. */
  async #startJobs(now: Date): Promise<number> {
    const { db, engine, clock, log, jobs: handlers } = this.#options;
    const kinds = Object.keys(handlers ?? {});
    const room = MAX_JOBS_IN_FLIGHT - this.#jobs.size;
    if (!handlers || kinds.length === 0 || room <= 0) return 0;
    const claimed = await claimDue(db, engine, {
      table: 'jobs',
      owner: this.owner,
      now,
      leaseMs: this.#leaseMs,
      limit: room,
      extra: sql<SqlBool>`${sql.ref('jobs.kind')} in (${sql.join(kinds)})`,
    });
    for (const id of claimed) {
      const running = runJob({ db, owner: this.owner, now: () => clock.now(), handlers, log }, id)
        .catch((err: unknown) => log.error({ err, job: id }, 'background job could not be recorded'))
        .finally(() => {
          this.#jobs.delete(id);
          this.nudge();
        });
      this.#jobs.set(id, running);
    }
    return claimed.length;
  }

  /**
   * Scheduled posts are looked for once per poll interval, not on every round a write's nudge starts:
   * a post is due at a time, not after a write. A failure is only logged and tried again next time.
   */
  async #publishNow(): Promise<number> {
    const { publishDue, clock, config, log } = this.#options;
    const now = clock.epochMs();
    if (!publishDue || now - this.#publishedAt < config.pollMs) return 0;
    this.#publishedAt = now;
    try {
      const published = await publishDue(new Date(now));
      for (const post of published) {
        const line = {
          job: 'publish',
          job_id: post.id,
          type: post.type,
          scheduled_for: post.publishedAt.toISOString(),
          late_ms: now - post.publishedAt.getTime(),
          ms: post.ms,
        };
        log.info(line, `scheduled ${post.type} published`);
      }
      return published.length;
    } catch (err) {
      log.error({ err }, 'publishing scheduled posts failed');
      return 0;
    }
  }

  /** Fans the claimed events out in one transaction; when that fails, one by one, so that one bad row holds back no other. */
  async #fanOut(events: readonly string[], now: Date): Promise<void> {
    const { db, engine, log } = this.#options;
    try {
      await fanOutAll(db, engine, this.owner, events, now);
      return;
    } catch {
      // Rolled back whole; the loop below finds which row fails, and says so.
    }
    // In the order claimed (oldest first): deliveries inherit the events' order.
    for (const id of events) {
      try {
        await fanOut(db, engine, this.owner, id, now);
      } catch (err) {
        // A webhook deleted while the event was fanned out fails the insert (foreign key). Given back at once,
        // the row is fanned out again next round, instead of holding back every later delivery for a lease.
        log.error({ err, outbox: id }, 'fanning out an event failed; it is retried');
        await releaseLease(db, 'outbox', this.owner, id);
      }
    }
  }

  /** Old history goes once an hour (and at start); a failure is only logged: it is tried again next time. */
  async #pruneNow(): Promise<void> {
    const { db, clock, config, log } = this.#options;
    const now = clock.epochMs();
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    try {
      await pruneHistory(db, new Date(now - config.historyDays * 86_400_000));
    } catch (err) {
      log.error({ err }, 'pruning webhook history failed');
    }
  }

  async #renew(): Promise<void> {
    const { db, clock } = this.#options;
    const until = new Date(clock.epochMs() + this.#leaseMs);
    try {
      await renewLeases(db, 'webhook_deliveries', this.owner, [...this.#held], until);
      await renewLeases(db, 'jobs', this.owner, [...this.#jobs.keys()], until);
    } catch (err) {
      this.#options.log.error({ err }, 'renewing job leases failed');
    }
  }
}
