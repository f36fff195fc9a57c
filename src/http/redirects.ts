import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Ghost's pretty-URL rules for the API: GET/HEAD/OPTIONS without a trailing slash, or with upper-case
 * letters in the root (`/Ghost/API/Admin/…`), are answered with a permanent redirect.
 */
export function apiRedirectHook(apiRoot: string) {
  const rootLower = apiRoot.toLowerCase();
  return async function redirectPrettyUrls(request: FastifyRequest, reply: FastifyReply) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') return;
    const [path, query] = splitUrl(request.url);
    if (!path.toLowerCase().startsWith(rootLower.slice(0, -1))) return;
    // Lower-case up to and including the API name (`/ghost/api/admin/`), never the resource part.
    const nameEnd = path.indexOf('/', apiRoot.length);
    const rootEnd = nameEnd === -1 ? path.length : nameEnd;
    let target = path.slice(0, rootEnd).toLowerCase() + path.slice(rootEnd);
    if (!target.endsWith('/')) target += '/';
    if (target === path) return;
    reply.header('Cache-Control', 'public, max-age=31536000');
    return reply.redirect(target + query, 301);
  };
}

function splitUrl(url: string): [string, string] {
  const index = url.indexOf('?');
  return index === -1 ? [url, ''] : [url.slice(0, index), url.slice(index)];
}
