import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Db } from '../db/connect.js';
import { databaseContentVersions, readContentVersion, VersionWatermark, type ContentVersions } from './content-version.js';

/**
 * How often an instance in Redis mode reads the version from the database anyway: the bound on a version
 * whose message was lost (its writer died between commit and publish, or could not reach Redis while this
 * instance could), and on writes made by a process that publishes nothing (the CLI).
 */
export const REDIS_RECHECK_MS = 1000;

export interface VersionLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** One channel per database (named from its `db_hash`, never the hash itself): sites sharing a Redis never mix. */
export function contentVersionChannel(dbHash: string): string {
  return `quire:content-version:${createHash('sha256').update(dbHash).digest('hex').slice(0, 32)}`;
}

/**
 * Redis mode: after its commit the writer publishes the new version on the database's channel; every
 * instance keeps the largest version it heard and answers `current()` from memory, with no database read
 * per request. Trusted only while the subscription is live and the database was read after it began
 * (messages published while it was down are lost, so the version is read again on every reconnection);
 * otherwise `current()` reads the database as in the default mode.
 *
 * The bound: an edit committed through another instance is seen here once its message arrives (the
 * pub/sub delay, well under a millisecond on one network), and at most REDIS_RECHECK_MS later when a
 * message was lost.
 */
export function redisContentVersions(options: { db: Db; url: string; channel: string; log: VersionLog; onNewer: (version: number) => void }): ContentVersions {
  const { db, url, channel, log } = options;
  const watermark = new VersionWatermark(options.onNewer);
  const fallback = databaseContentVersions(db, (version) => watermark.see(version));
  // Commands fail at once while disconnected instead of queueing: a publish that cannot be sent is not worth
  // sending late (the recheck covers it), and a request never waits on Redis.
  const connection = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 2000),
  };
  const subscriber = new Redis(url, { ...connection, autoResubscribe: false });
  const publisher = new Redis(url, connection);
  let live = false;
  let session = 0;
  let closed = false;
  // Said once per outage, not at every retry.
  let saidDown = false;

  const lost = () => {
    session += 1;
    if (live && !closed) {
      log.warn({ channel }, 'redis subscription lost; the response cache reads the content version from the database');
      saidDown = true;
    }
    live = false;
  };
  // A connection error is followed by 'close'; before the first connection it is the only sign.
  subscriber.on('error', (err: Error) => {
    if (!live && !saidDown && !closed) {
      log.warn({ err, channel }, 'redis unreachable; the response cache reads the content version from the database');
      saidDown = true;
    }
  });
  subscriber.on('close', () => lost());
  subscriber.on('message', (from: string, message: string) => {
    const version = Number(message);
    if (from === channel && Number.isSafeInteger(version)) watermark.see(version);
  });
  subscriber.on('ready', () => {
    const mine = ++session;
    // Subscribed first, then the database read: a version committed in between is in one or the other.
    subscriber
      .subscribe(channel)
      .then(() => readContentVersion(db))
      .then((version) => {
        if (mine !== session || closed) return;
        watermark.see(version);
        live = true;
        saidDown = false;
        log.info({ channel }, 'redis subscription live; the response cache takes content versions from it');
      })
      .catch((err: unknown) => log.warn({ err, channel }, 'redis subscription failed; the response cache reads the content version from the database'));
  });
  publisher.on('error', () => undefined);
  // Connection failures are retried by the clients themselves; until then the database answers.
  subscriber.connect().catch(() => undefined);
  publisher.connect().catch(() => undefined);

  const recheck = setInterval(() => {
    if (live)
      readContentVersion(db).then(
        (version) => watermark.see(version),
        () => undefined,
      );
  }, REDIS_RECHECK_MS);
  recheck.unref();

  return {
    current: () => (live ? Promise.resolve(watermark.seen) : fallback.current()),
    committed(version) {
      watermark.see(version);
      publisher.publish(channel, String(version)).catch((err: unknown) => {
        log.warn({ err, channel }, 'content version not published; other instances see it within their recheck');
      });
    },
    async close() {
      closed = true;
      live = false;
      clearInterval(recheck);
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
