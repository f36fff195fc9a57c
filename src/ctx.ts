import type { Db } from './db/connect.js';
import type { ReadDb } from './db/read-db.js';
import type { Engine } from './db/engine.js';
import type { Actor } from './auth/actor.js';
import type { Mailer } from './mail/mailer.js';
import type { SecretBox } from './auth/secret-box.js';
import type { Storage } from './storage/storage.js';
import type { Clock } from './clock.js';
import { OWNER_USER_ID } from './auth/roles.js';
import { retryingTransaction } from './db/transactions.js';
import { writeOutbox, type EventRecorder, type RecordedEvent } from './events/outbox.js';
import { bumpContentVersion } from './events/content-version.js';
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
 * The member a public request comes from (the Members API's session cookie, or an identity token where
 * allowed), as access checks need it; set on Content API requests by the Members API's hook.
 */
export interface MemberAccess {
  readonly status: 'free' | 'paid' | 'comped';
  /** The tiers the member holds. */
  readonly tierIds: readonly string[];
}

/**
 * Everything a service needs to do its work, built once per request (`request.ctx`) and once per
 * background job (`jobCtx`). Services take `(ctx, input)`; writes go through `ctx.write`.
 */
export interface Ctx {
  /** The pool, read-only: writes go through `write`, whose ctx holds the transaction. */
  readonly db: ReadDb;
  /**
   * The pool with writes, for the documented writes that run outside `ctx.write` on purpose: each is one
   * statement (or an insert that settles its own race), safe to repeat, and Ghost audits and announces none
   * of them. Login and reset counters (`auth/login-limits.ts`), sessions, one-time codes and device
   * verification, job enqueueing (the job row must exist whatever the request does next), staff tokens
   * (`users.tokens.ts`: Ghost records no action for them) and `last_seen` at login (`session.service.ts`).
   * ESLint allows it only in the files `eslint.config.js` lists (`AUTOCOMMIT_FILES`).
   */
  readonly autocommitDb: Db;
  readonly engine: Engine;
  readonly site: Site;
  /** The Admin API caller; null for the Content API, public routes, jobs and the CLI. */
  readonly actor: Actor | null;
  /** The signed-in member of a Content API request; absent or null for everyone else. */
  readonly member?: MemberAccess | null;
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
  /**
   * Whether a committed write of this ctx recorded `site.changed`: the answer then carries Ghost's
   * `X-Cache-Invalidate: /*` (set in one place, `http/cache-invalidate.ts`), so the header and the event
   * never disagree.
   */
  siteChanged(): boolean;
}

/** The ctx inside `write`: `db` is the transaction, and events can be recorded. */
export interface WriteCtx extends Ctx {
  readonly db: Db;
  readonly events: EventRecorder;
  /**
   * Says that this write changes what the Content API answers though Ghost announces nothing for it (a tag
   * made or renamed by saving a draft): the content version is bumped as for `site.changed`, so the response
   * cache forgets what it kept, and no event is recorded.
   */
  changesContent(): void;
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
  /**
   * Called with the new content version after a write that bumped it committed (the response cache takes it
   * at once and tells the other instances through Redis when it is configured).
   */
  onContentChanged?: (version: number) => void;
}

/** Whom the audit trail names: the staff user, or the integration of an API key. */
function actionActor(actor: Actor | null): ActionActor | null {
  if (actor?.user) return { id: actor.user.id, type: 'user' };
  if (actor?.apiKey?.integration_id) return { id: actor.apiKey.integration_id, type: 'integration' };
  return null;
}

/** What a request's route declares about its writes. */
export interface WriteOptions {
  /**
   * Ghost's controller `cacheInvalidate: true`: every successful write of this request changes the public
   * site, so its first write records `site.changed` (a service may record it itself, for a dynamic case).
   */
  invalidatesSite?: boolean;
}

const SITE_CHANGED = 'site.changed';

function buildCtx(base: CtxBase, actor: Actor | null, options: WriteOptions = {}): Ctx {
  let siteChanged = false;
  const ctx: Ctx = {
    ...base,
    autocommitDb: base.db,
    actor,
    actingUserId: actor?.user?.id ?? OWNER_USER_ID,
    siteChanged: () => siteChanged,
    write: async (fn) => {
      let announced = 0;
      let announcedSiteChange = false;
      let contentVersion: number | null = null;
      const result = await retryingTransaction(base.db, async (trx) => {
        const recorded: RecordedEvent[] = [];
        const actions = new ActionCollector();
        let open = true;
        let changesContent = false;
        const writeCtx: WriteCtx = {
          ...ctx,
          db: trx.withPlugin(actions),
          events: {
            record(name, payload, resource) {
              if (!open) throw new Error(`event ${name} recorded after its write ended`);
              recorded.push({ name, payload, ...(resource ? { resource } : {}) });
            },
          },
          changesContent() {
            if (!open) throw new Error('a content change declared after its write ended');
            changesContent = true;
          },
          write: (inner) => inner(writeCtx),
        };
        let result: Awaited<ReturnType<typeof fn>>;
        try {
          result = await fn(writeCtx);
        } finally {
          open = false;
        }
        if (options.invalidatesSite && !siteChanged && !recorded.some((event) => event.name === SITE_CHANGED)) {
          recorded.push({ name: SITE_CHANGED, payload: {} });
        }
        await actions.write(trx, actionActor(actor), base.clock.now());
        await writeOutbox(trx, recorded, base.clock.now());
        announced = recorded.length;
        announcedSiteChange = recorded.some((event) => event.name === SITE_CHANGED);
        // Last, so the version row is locked only while the transaction commits: writes that change the site
        // queue on it briefly, and always after their other locks (no lock-order deadlock).
        contentVersion = announcedSiteChange || changesContent ? await bumpContentVersion(trx) : null;
        return result;
      });
      if (announcedSiteChange) siteChanged = true;
      if (announced > 0) base.onEventsCommitted?.();
      if (contentVersion !== null) base.onContentChanged?.(contentVersion);
      return result;
    },
  };
  return ctx;
}

/** The ctx of one request, for its caller (null before or without authentication). */
export const requestCtx = (base: CtxBase, actor: Actor | null, options: WriteOptions = {}): Ctx => buildCtx(base, actor, options);

/** The ctx of one background job or CLI command: no caller, writes recorded as the Owner. */
export const jobCtx = (base: CtxBase): Ctx => buildCtx(base, null);
