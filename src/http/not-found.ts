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

interface RouteMatcher {
  method: string;
  path: RegExp;
}

/** `GET /posts/:id` → its method and a pattern of the path with or without its trailing slash. */
function routeMatcher(route: string): RouteMatcher {
  const [method, pattern] = route.split(' ') as [string, string];
  return { method, path: new RegExp(`^${pattern.replace(/\/$/, '').replace(/:[^/]+/g, '[^/]+')}/?$`) };
}

const methodMatches = (route: string, requested: string) => requested === route || (requested === 'HEAD' && route === 'GET');

const GHOST_MATCHERS: Record<Api, RouteMatcher[]> = {
  admin: GHOST_ROUTES.admin.map(routeMatcher),
  content: GHOST_ROUTES.content.map(routeMatcher),
};

const API_NAMES: Record<Api, string> = { admin: 'Admin API', content: 'Content API' };

/**
 * What the message of an unmatched API request says: the method and path nobody serves, and, when Ghost's API
 * has that path under other methods, which ones (a PUT sent as POST, a GET to a write-only path).
 */
function unknownEndpoint(api: Api, method: string, path: string, pathname: string): string {
  const others = [...new Set(GHOST_MATCHERS[api].filter((route) => route.path.test(path)).map((route) => route.method))];
  const methods = others.length ? ` (that path takes ${others.join(', ')})` : '';
  return `the ${API_NAMES[api]} has no endpoint ${method} ${pathname}${methods}.`;
}

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
 * upgrade (code `ENDPOINT_NOT_BUILT`). An API path that neither Ghost nor this service has keeps Ghost's
 * status, type and code, with the method and path in the message.
 */
export function notFoundHandler(apiRoot: string, siteUrl: string) {
  const adminAllowed = adminOriginAllowed(siteUrl);
  return function answerUnmatched(request: FastifyRequest, reply: FastifyReply) {
    apiHeaders(request, reply);
    const located = locate(request.url, apiRoot);
    if (located) unmatchedCorsHeaders(request, reply, located.api, adminAllowed);
    const notBuilt =
      located !== null && GHOST_MATCHERS[located.api].some((route) => methodMatches(route.method, request.method) && route.path.test(located.path));
    const pathname = request.url.split('?')[0]!;
    const endpoint = `${request.method} ${pathname}`;
    // Ghost's messages for an unknown API path say nothing of the path (and, to an SDK, suggest upgrading it).
    const unknown = located && !notBuilt ? unknownEndpoint(located.api, request.method, located.path, pathname) : null;
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
            message: unknown
              ? `Request could not be served, the endpoint was not found: ${unknown}`
              : 'Request could not be served, the endpoint was not found.',
            context: `Provided client accept-version ${accept} is ${ahead ? 'ahead of' : 'behind'} current Ghost version v${SERVER_VERSION}.`,
            // An SDK always names v5.0, so Ghost's advice to upgrade it sends a mistyped path's author the wrong way.
            help: ahead ? 'Try upgrading your Ghost install.' : unknown ? 'Check the method and path.' : 'Try upgrading your Ghost API client.',
            code: ahead ? 'UPDATE_GHOST' : 'UPDATE_CLIENT',
          }),
          request,
          reply,
        );
      }
    }
    if (notBuilt) return renderError(errors.notFound(notBuiltDetails), request, reply);
    return renderError(errors.notFound(unknown ? `Resource not found: ${unknown}` : 'Resource not found'), request, reply);
  };
}
