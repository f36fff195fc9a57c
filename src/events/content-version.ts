import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import type { ReadDb } from '../db/read-db.js';

/**
 * The content version: one number in `cache_versions` (row `content`, migration 0017) that every write
 * changing what the Content API answers bumps in its own transaction (`ctx.write`, with `site.changed`).
 * A kept answer is current while the version it was computed at is still the latest; instances need no
 * message to agree on it, only the database.
 */
const ROW = 'content';

/** Bumps the version inside the writer's transaction and returns the new value (visible to others on commit). */
export async function bumpContentVersion(trx: Db): Promise<number> {
  await trx
    .updateTable('cache_versions')
    .set({ version: sql`version + 1` })
    .where('name', '=', ROW)
    .execute();
  return readContentVersion(trx);
}

export async function readContentVersion(db: ReadDb): Promise<number> {
  const row = await db.selectFrom('cache_versions').select('version').where('name', '=', ROW).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * Reads the version for many concurrent callers with few queries, never answering a caller with a read
 * that began before it asked: callers arriving while a read is under way share the next one, which starts
 * when it ends. So a write committed before a request arrived is always seen by that request, and under load
 * one query serves every request that came in during the previous one.
 */
export class CoalescedVersionReader {
  #running: Promise<number> | null = null;
  #queued: Promise<number> | null = null;

  constructor(private readonly read: () => Promise<number>) {}

  current(): Promise<number> {
    if (this.#queued) return this.#queued;
    if (!this.#running) return this.#launch();
    const settled = () => undefined;
    this.#queued = this.#running.then(settled, settled).then(() => {
      this.#queued = null;
      return this.#launch();
    });
    return this.#queued;
  }

  #launch(): Promise<number> {
    const running = this.read().finally(() => {
      if (this.#running === running) this.#running = null;
    });
    this.#running = running;
    return running;
  }
}

/**
 * Where the response cache learns the current content version. The database answers by default; with
 * Redis, each instance hears every new version from the writer (`content-version-redis.ts`).
 */
export interface ContentVersions {
  /** The latest version as of now: an answer computed after this resolves is at least that recent. */
  current(): Promise<number>;
  /** This instance's writer committed `version` (called by `ctx.write` through `onContentChanged`). */
  committed(version: number): void;
  close(): Promise<void>;
}

/**
 * The largest version seen so far in this process; `onNewer` is told each time it grows (the settings cache
 * drops what it loaded before, so an answer computed at the new version never reads older settings).
 */
export class VersionWatermark {
  #seen = -1;

  constructor(private readonly onNewer: (version: number) => void) {}

  get seen(): number {
    return this.#seen;
  }

  see(version: number): number {
    if (version > this.#seen) {
      this.#seen = version;
      this.onNewer(version);
    }
    return version;
  }
}

/** The database mode: every call reads the version (coalesced), so an edit through any instance is seen at once. */
export function databaseContentVersions(db: ReadDb, onNewer: (version: number) => void): ContentVersions {
  const watermark = new VersionWatermark(onNewer);
  const reader = new CoalescedVersionReader(() => readContentVersion(db));
  return {
    current: async () => watermark.see(await reader.current()),
    committed: (version) => void watermark.see(version),
    close: async () => undefined,
  };
}
