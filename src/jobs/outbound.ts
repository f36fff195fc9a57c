import http from 'node:http';
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { createHmac } from 'node:crypto';
import { isPrivateAddress, PrivateAddressError } from './addresses.js';

/** What Ghost 5.130 sends with every webhook (reference/webhooks-and-events.md §2). */
const GHOST_VERSION = 'v5.130';
const USER_AGENT = 'Ghost/5.130 (https://github.com/TryGhost/Ghost)';
const EXCERPT_BYTES = 500;

export interface OutboundRequest {
  url: string;
  body: string;
  /** Signs the body when non-empty. */
  secret: string | null;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Milliseconds since the epoch, for the signature's `t=`. */
  now: number;
}

/** An answer (any status), or the error code of a request that got none. */
export type OutboundResult = { kind: 'answered'; status: number; latencyMs: number; excerpt: string } | { kind: 'failed'; code: string; latencyMs: number };

/** Ghost's `X-Ghost-Signature`: HMAC-SHA256 over the body immediately followed by the timestamp in ms. */
export function ghostSignature(secret: string, body: string, ts: number): string {
  return `sha256=${createHmac('sha256', secret).update(`${body}${ts}`).digest('hex')}, t=${ts}`;
}

/** Resolves as the OS would, refusing private addresses: checked on the address actually connected to. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as dns.LookupAddress[];
      const blocked = allowPrivate ? undefined : list.find(({ address }) => isPrivateAddress(address));
      if (blocked) return callback(new PrivateAddressError(`${hostname} resolves to a private address`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Connections are kept open between requests (a busy webhook gets its deliveries one after the other): a new
 * connection per delivery cost more than the delivery. Each new connection still resolves through
 * `guardedLookup`, so the address check holds for every connection; an agent per setting, so that no connection
 * opened while private addresses were allowed is reused where they are not.
 */
const agents = new Map<string, http.Agent>();

/** node:https (and TLS under it), loaded with the first https delivery: a server that sends none never holds it (issue 26). */
const https = () => process.getBuiltinModule('node:https');

function agentFor(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = protocol === 'https:' ? new (https().Agent)({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    agents.set(key, agent);
  }
  return agent;
}

/** Redirects followed at most, as Ghost's HTTP client does by default (got: 10). */
const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

type Hop = { kind: 'answer'; status: number; location: string | null; excerpt: string } | { kind: 'error'; code: string };

/** One request to one URL: its answer (the body's start kept), or why there was none. */
function requestOnce(url: URL, headers: Record<string, string>, body: string, allowPrivate: boolean, signal: AbortSignal): Promise<Hop> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve({ kind: 'error', code: 'URL_MISSING_INVALID' });
  // An address literal is connected to without a lookup, so it is checked here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && isPrivateAddress(host)) return Promise.resolve({ kind: 'error', code: 'BLOCKED_PRIVATE_ADDRESS' });
  return new Promise((resolve) => {
    const client = url.protocol === 'https:' ? https() : http;
    const agent = agentFor(url.protocol, allowPrivate);
    const req = client.request(url, { method: 'POST', headers, lookup: guardedLookup(allowPrivate), agent, signal }, (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < EXCERPT_BYTES) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      res.on('end', () =>
        resolve({
          kind: 'answer',
          status: res.statusCode ?? 0,
          location: typeof res.headers.location === 'string' ? res.headers.location : null,
          excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
        }),
      );
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ kind: 'error', code: err.code ?? 'unknown' }));
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ kind: 'error', code: err instanceof PrivateAddressError ? err.code : signal.aborted ? 'ETIMEDOUT' : (err.code ?? 'unknown') }),
    );
    req.end(body);
  });
}

/**
 * POSTs one webhook body with Ghost's headers, following redirects (each target checked like the first).
 * The timeout covers the whole exchange: every hop, answer and body. Never throws: every outcome is a result.
 */
export async function postWebhook(request: OutboundRequest): Promise<OutboundResult> {
  const started = Date.now();
  const failed = (code: string): OutboundResult => ({ kind: 'failed', code, latencyMs: Date.now() - started });
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failed('URL_MISSING_INVALID');
  }
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(request.body)),
    'Content-Version': GHOST_VERSION,
    'User-Agent': USER_AGENT,
    'Accept-Encoding': 'gzip, deflate, br',
  };
  if (request.secret) headers['X-Ghost-Signature'] = ghostSignature(request.secret, request.body, request.now);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
  try {
    for (let hops = 0; ; hops++) {
      const hop = await requestOnce(url, headers, request.body, request.allowPrivate, timeout.signal);
      if (timeout.signal.aborted) return failed('ETIMEDOUT');
      if (hop.kind === 'error') return failed(hop.code);
      if (!REDIRECTS.has(hop.status) || !hop.location) {
        return { kind: 'answered', status: hop.status, latencyMs: Date.now() - started, excerpt: hop.excerpt };
      }
      // Got, Ghost's client, gives up with MaxRedirectsError after ten: a loop is a failure, never a delivery.
      if (hops >= MAX_REDIRECTS) return failed('ERR_TOO_MANY_REDIRECTS');
      try {
        url = new URL(hop.location, url);
      } catch {
        return failed('URL_MISSING_INVALID');
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
