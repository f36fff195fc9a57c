import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

const LEGACY = /^(v2|v3|v4|canary)\/(admin|content)\//;

declare module 'node:http' {
  interface IncomingMessage {
    /** `v4` for a request that came in as `/ghost/api/v4/admin/…` (set before routing). */
    legacyApiVersion?: string;
  }
}

/**
 * Older clients call `/ghost/api/{v2,v3,v4,canary}/{admin,content}/…`; Ghost serves those from the
 * unversioned routes (`canary` counts as v4). Used as Fastify's `rewriteUrl`, so routing sees the new path.
 */
export function legacyUrlRewriter(apiRoot: string) {
  return (req: IncomingMessage): string => {
    const url = req.url ?? '/';
    if (!url.startsWith(apiRoot)) return url;
    const match = LEGACY.exec(url.slice(apiRoot.length));
    if (!match) return url;
    req.legacyApiVersion = match[1] === 'canary' ? 'v4' : match[1];
    return apiRoot + url.slice(apiRoot.length + match[1]!.length + 1);
  };
}

/** The admin token audience a request must carry: `/admin/`, or `/v4/admin/` on a legacy path. */
export function adminAudience(request: FastifyRequest): RegExp {
  const version = request.raw.legacyApiVersion;
  return version ? new RegExp(`/?${version}/admin/?$`) : /\/?admin\/?$/;
}

/** Ghost's deprecation notice on legacy paths, pointing at the current URL. */
export function legacyHeaders(request: FastifyRequest, reply: FastifyReply) {
  const version = request.raw.legacyApiVersion;
  if (!version) return;
  reply.header('Deprecation', `version="${version}"`);
  reply.header('Link', `<${request.protocol}://${request.host}${request.url}>; rel="latest-version"`);
}
