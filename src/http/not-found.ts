import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../errors.js';
import { SERVER_VERSION, apiHeaders } from './api-headers.js';
import { renderError } from './render-error.js';
import { adminOriginAllowed, unmatchedCorsHeaders } from './cors.js';
import { GHOST_ROUTES } from './ghost-routes.js';

/** `v5`, `5.2`, `v5.130.1` → [major, minor, patch]; null when not a version. */
function coerceVersion(raw: string): [number, number, number] | null {
  const match = /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(raw);
  if (!match) return null;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

type Api = 'admin' | 'content';

/** `GET /posts/:id` → a matcher of the method and a path with or without its trailing slash. */
function routeMatcher(route: string): (method: string, path: string) => boolean {
  const [method, pattern] = route.split(' ') as [string, string];
  const path = new RegExp(`^${pattern.replace(/\/$/, '').replace(/:[^/]+/g, '[^/]+')}/?$`);
  return (requestMethod, requestPath) => (requestMethod === method || (requestMethod === 'HEAD' && method === 'GET')) && path.test(requestPath);
}

const GHOST_MATCHERS: Record<Api, ((method: string, path: string) => boolean)[]> = {
  admin: GHOST_ROUTES.admin.map(routeMatcher),
  content: GHOST_ROUTES.content.map(routeMatcher),
};

/** Which API a path is under, and the path within it. */
function locate(url: string, apiRoot: string): { api: Api; path: string } | null {
  const pathname = url.split('?')[0]!;
  for (const api of ['admin', 'content'] as const) {
    const root = `${apiRoot}${api}`;
    if (pathname === root || pathname.startsWith(`${root}/`)) return { api, path: pathname.slice(root.length) || '/' };
  }
  return null;
}

/**
 * Unmatched routes. As Ghost: 404 `Resource not found`, unless the client's Accept-Version (or, on a
 * legacy `/v4/` path, that version) explains the miss: ahead of or behind the server → 406, unparsable →
 * 400. Each API's CORS headers are on these answers too. When Ghost has the route and this service has not
 * built it, the status is the same but the message names the endpoint instead of asking the client to
 * upgrade (code `ENDPOINT_NOT_BUILT`).
 */
export function notFoundHandler(apiRoot: string, siteUrl: string) {
  const adminAllowed = adminOriginAllowed(siteUrl);
  return function answerUnmatched(request: FastifyRequest, reply: FastifyReply) {
    apiHeaders(request, reply);
    const located = locate(request.url, apiRoot);
    if (located) unmatchedCorsHeaders(request, reply, located.api, adminAllowed);
    const notBuilt = located !== null && GHOST_MATCHERS[located.api].some((matches) => matches(request.method, located.path));
    const endpoint = `${request.method} ${request.url.split('?')[0]}`;
    const notBuiltDetails = {
      message: `${endpoint} is not available on this server.`,
      context: `Ghost ${SERVER_VERSION} has this endpoint; this server has not built it yet.`,
      code: 'ENDPOINT_NOT_BUILT',
    };

    const header = request.headers['accept-version'];
    const legacy = request.raw.legacyApiVersion;
    const accept = typeof header === 'string' ? header : legacy ? `${legacy}.0` : undefined;
    if (accept !== undefined) {
      const client = coerceVersion(accept);
      if (!client) return renderError(errors.badRequest('Requested version is not supported.'), request, reply);
      const order = compare(client, coerceVersion(SERVER_VERSION)!);
      if (order !== 0 && notBuilt) return renderError(errors.requestNotAcceptable(notBuiltDetails), request, reply);
      if (order !== 0) {
        const ahead = order > 0;
        return renderError(
          errors.requestNotAcceptable({
            message: 'Request could not be served, the endpoint was not found.',
            context: `Provided client accept-version ${accept} is ${ahead ? 'ahead of' : 'behind'} current Ghost version v${SERVER_VERSION}.`,
            help: ahead ? 'Try upgrading your Ghost install.' : 'Try upgrading your Ghost API client.',
            code: ahead ? 'UPDATE_GHOST' : 'UPDATE_CLIENT',
          }),
          request,
          reply,
        );
      }
    }
    return renderError(notBuilt ? errors.notFound(notBuiltDetails) : errors.notFound('Resource not found'), request, reply);
  };
}
