import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { databaseContentVersions, type ContentVersions } from '../events/content-version.js';
import type { VersionLog } from '../events/content-version-redis.js';
import { invalidateSettings, readSetting } from '../settings/settings.js';
import { ResponseCache } from './response-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the cache lookup on a miss: where and at which content version the answer is to be kept. */
    cacheSlot?: CacheSlot;
    /** The answer came from the cache: nothing to hash or keep. */
    cacheHit?: boolean;
    /**
     * What else the answer depends on besides the URL: the signed-in member's access (set by the Members API's
     * hook), so answers are kept per access and never served across it.
     */
    cacheVariant?: string;
  }
}

interface CacheSlot {
  key: string;
  version: number;
  /** Headers the hooks had set before the route ran: not kept with the answer, since they set them again. */
  before: Readonly<Record<string, unknown>>;
}

/** Headers never kept: the server computes them for each reply. */
const NOT_KEPT = new Set(['content-length', 'etag', 'date', 'connection', 'transfer-encoding', 'keep-alive']);

/**
 * Content API answers: a strong entity tag on every 200 JSON answer (`If-None-Match` answered 304), and, with
 * a cache, GET and HEAD answers kept in memory and served again while the content version they were computed
 * at is the latest (`events/content-version.ts`).
 *
 * The lookup is an `onRequest` hook registered after the content key check, so a deleted key is refused
 * before any kept answer is looked at. Only 200 answers with a JSON body the route produced whole are kept;
 * a streamed one is sent as it streams, untagged. The key is the URL as requested (path and query, which
 * holds the content key: two keys never share an entry) and `Accept-Version`, the one request header the
 * answers vary on.
 */
export function contentCacheHooks(scope: FastifyInstance, { cache, versions }: { cache: ResponseCache | null; versions: ContentVersions | null }) {
  if (cache && versions) scope.addHook('onRequest', lookup(cache, versions));
  scope.addHook('onSend', async (request, reply, payload) => tagAndKeep(request, reply, payload, cache));
}

const cacheable = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD';

function lookup(cache: ResponseCache, versions: ContentVersions) {
  return async function serveKeptAnswer(request: FastifyRequest, reply: FastifyReply) {
    if (!cacheable(request)) return;
    const key = `${request.originalUrl}\n${request.headers['accept-version'] ?? ''}\n${request.cacheVariant ?? ''}`;
    // Read before anything is computed: a write committed while the answer is computed makes it older than
    // the latest version, so it is never served again.
    const version = await versions.current();
    const kept = cache.get(key);
    if (kept?.version === version) {
      request.cacheHit = true;
      reply.headers(kept.headers).header('ETag', kept.etag);
      if (fresh(request.headers, { etag: kept.etag })) return notModified(reply).send();
      return reply.send(kept.body);
    }
    if (kept) cache.delete(key);
    request.cacheSlot = { key, version, before: reply.getHeaders() };
  };
}

async function tagAndKeep(request: FastifyRequest, reply: FastifyReply, payload: unknown, cache: ResponseCache | null) {
  if (request.cacheHit || reply.statusCode !== 200 || !cacheable(request)) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const etag = entityTag(body);
  reply.header('ETag', etag);
  const slot = request.cacheSlot;
  if (cache && slot && !reply.hasHeader('set-cookie')) cache.set(slot.key, { version: slot.version, body, etag, headers: routeHeaders(reply, slot) });
  if (fresh(request.headers, { etag })) {
    notModified(reply);
    return request.method === 'HEAD' ? undefined : null;
  }
  return body;
}

/**
 * A strong tag of the exact bytes, computed once and kept with the answer (a hit hashes nothing). Ghost's
 * Express makes the same value, length and SHA-1, but weak (`W/"5f8-…"`), and on error bodies too.
 */
function entityTag(body: Buffer): string {
  return `"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64').slice(0, 27)}"`;
}

/** 304 without a body: what describes the body (its type) goes too, the validators and caching headers stay. */
function notModified(reply: FastifyReply): FastifyReply {
  return reply.code(304).removeHeader('content-type');
}

function routeHeaders(reply: FastifyReply, slot: CacheSlot): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || NOT_KEPT.has(name) || slot.before[name] === value) continue;
    kept[name] = typeof value === 'number' ? String(value) : value;
  }
  return kept;
}

/**
 * The cache and the version source the configuration asks for: none with `RESPONSE_CACHE_MB=0` and no Redis
 * (answers are still tagged); the database mode by default; Redis mode with `REDIS_URL` (an instance without
 * a cache of its own still publishes its writes' versions to the others). A new version seen drops the
 * settings this process cached, so an answer computed at that version reads current settings.
 */
export async function contentCaching(config: Config, db: Db, log: VersionLog): Promise<{ cache: ResponseCache | null; versions: ContentVersions | null }> {
  const cache = config.responseCacheBytes > 0 ? new ResponseCache(config.responseCacheBytes) : null;
  if (config.redisUrl) {
    // Loaded only in Redis mode: the client is ~2 MB of heap an instance without Redis never uses.
    const { contentVersionChannel, redisContentVersions } = await import('../events/content-version-redis.js');
    const channel = contentVersionChannel((await readSetting(db, 'db_hash')) ?? '');
    return { cache, versions: redisContentVersions({ db, url: config.redisUrl, channel, log, onNewer: invalidateSettings }) };
  }
  return { cache, versions: cache ? databaseContentVersions(db, invalidateSettings) : null };
}
