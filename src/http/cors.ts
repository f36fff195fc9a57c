import { networkInterfaces } from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Ghost's Admin API allow-list: browsers may call it from localhost, this machine's IPv4 addresses, or the
 * site's own host; other origins (and `null`) get no CORS headers at all.
 */
export function adminOriginAllowed(siteUrl: string): (origin: string | undefined) => boolean {
  const allowedHosts = new Set(['localhost', new URL(siteUrl).hostname]);
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4') allowedHosts.add(address.address);
  }
  return (origin) => {
    if (!origin || origin === 'null') return false;
    try {
      return allowedHosts.has(new URL(origin).hostname);
    } catch {
      return false;
    }
  };
}

/** The allow-list as `@fastify/cors`'s `origin` option: the origin reflected, or no CORS headers. */
export function adminCorsOrigin(siteUrl: string) {
  const allowed = adminOriginAllowed(siteUrl);
  return (origin: string | undefined, callback: (err: Error | null, allow: boolean | string) => void) => callback(null, allowed(origin) ? origin! : false);
}

/**
 * CORS headers for an answer no route gave (an unknown path): Ghost applies each API's CORS before
 * routing, so its 404s and 406s are readable by the same browsers as its answers.
 */
export function unmatchedCorsHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  api: 'admin' | 'content',
  adminAllowed: (origin: string | undefined) => boolean,
) {
  if (api === 'content') {
    reply.header('Access-Control-Allow-Origin', '*');
    return;
  }
  const { origin } = request.headers;
  if (adminAllowed(origin)) {
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Vary', 'Accept-Version, Origin');
  }
}
