import type { Db } from './db/connect.js';
import type { Engine } from './db/engine.js';
import type { Actor } from './auth/actor.js';
import type { Mailer } from './mail/mailer.js';
import type { SecretBox } from './auth/secret-box.js';
import type { Storage } from './storage/storage.js';
import type { Clock } from './clock.js';
import { OWNER_USER_ID } from './auth/roles.js';
import { retryingTransaction } from './db/transactions.js';
import { writeOutbox, type EventRecorder, type RecordedEvent } from './events/outbox.js';
import { ActionCollector, type ActionActor } from './events/actions.js';

/** The site's address and what every caller derives from it. */
export interface Site {
  /** With a trailing slash, e.g. `https://example.com/blog/`. */
  readonly url: string;
  /** Path of the Admin API root, e.g. `/blog/ghost/api/admin/`. */
  readonly adminRoot: string;
  /** Path of the API root (`{base_url}`), e.g. `/blog/ghost/api/`. */
  readonly apiRoot: string;
}

export function siteOf(url: string): Site {
  const apiRoot = `${new URL(url).pathname}ghost/api/`;
  return { url, apiRoot, adminRoot: `${apiRoot}admin/` };
}

/**
 * Everything a service needs to do its work, built once per request (`request.ctx`) and once per
 * background job (`jobCtx`). Services take `(ctx, input)`; writes go through `ctx.write`.
 */
export interface Ctx {
  /** The pool, or inside `write` the transaction. */
  readonly db: Db;
  readonly engine: Engine;
  readonly site: Site;
  /** The Admin API caller; null for the Content API, public routes, jobs and the CLI. */
  readonly actor: Actor | null;
  /**
   * The user a write is recorded against (`created_by`, `updated_by`): the caller, or the Owner's id `"1"`
   * for integrations and callers without a user, as Ghost records them.
   */
  readonly actingUserId: string;
  readonly clock: Clock;
  readonly mailer: Mailer;
  /** Seals and opens secrets stored in the database (`auth/secret-box.ts`). */
  readonly secrets: SecretBox;
  /** Files: local disk or object storage (`storage/`). */
  readonly storage: Storage;
  /**
   * Runs `fn` in a write transaction, the only way to open one. A write that lost a race (unique
   * constraint, deadlock) is run again from scratch (`db/transactions.ts`). The events `fn` records are
   * written to the outbox at the end of the attempt, in its transaction: a rolled-back attempt leaves none,
   * a retried one records its own. Called on a ctx that is already writing, `fn` joins that transaction.
   */
  write<T>(fn: (ctx: WriteCtx) => Promise<T>): Promise<T>;
}

/** The ctx inside `write`: `db` is the transaction, and events can be recorded. */
export interface WriteCtx extends Ctx {
  readonly events: EventRecorder;
}

/** What every ctx of one process shares. */
export interface CtxBase {
  db: Db;
  engine: Engine;
  site: Site;
  clock: Clock;
  mailer: Mailer;
  secrets: SecretBox;
  storage: Storage;
  /** Called after a write that recorded events committed (the job runner looks for work at once). */
  onEventsCommitted?: () => void;
}

/** Whom the audit trail names: the staff user, or the integration of an API key. */
function actionActor(actor: Actor | null): ActionActor | null {
  if (actor?.user) return { id: actor.user.id, type: 'user' };
  if (actor?.apiKey?.integration_id) return { id: actor.apiKey.integration_id, type: 'integration' };
  return null;
}

function buildCtx(base: CtxBase, actor: Actor | null): Ctx {
  const ctx: Ctx = {
    ...base,
    actor,
    actingUserId: actor?.user?.id ?? OWNER_USER_ID,
    write: async (fn) => {
      let announced = 0;
      const result = await retryingTransaction(base.db, async (trx) => {
        const recorded: RecordedEvent[] = [];
        const actions = new ActionCollector();
        let open = true;
        const writeCtx: WriteCtx = {
          ...ctx,
          db: trx.withPlugin(actions),
          events: {
            record(name, payload, resource) {
              if (!open) throw new Error(`event ${name} recorded after its write ended`);
              recorded.push({ name, payload, ...(resource ? { resource } : {}) });
            },
          },
          write: (inner) => inner(writeCtx),
        };
        let result: Awaited<ReturnType<typeof fn>>;
        try {
          result = await fn(writeCtx);
        } finally {
          open = false;
        }
        await actions.write(trx, actionActor(actor), base.clock.now());
        await writeOutbox(trx, recorded, base.clock.now());
        announced = recorded.length;
        return result;
      });
      if (announced > 0) base.onEventsCommitted?.();
      return result;
    },
  };
  return ctx;
}

/** The ctx of one request, for its caller (null before or without authentication). */
export const requestCtx = (base: CtxBase, actor: Actor | null): Ctx => buildCtx(base, actor);

/** The ctx of one background job or CLI command: no caller, writes recorded as the Owner. */
export const jobCtx = (base: CtxBase): Ctx => buildCtx(base, null);
