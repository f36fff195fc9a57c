import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import { contentTypeOf } from '../storage/content-type.js';
import { missingBuildPage } from './missing-page.js';
import { COMPRESSIBLE } from './pin.js';

export interface AdminAppOptions {
  /** The site's URL (ending with `/`); the app is served at `<siteUrl>ghost/`. */
  readonly siteUrl: string;
  /** The build folder: `index.html` and `assets/`. */
  readonly dir: string;
}

/** Ghost's admin answers (its `cacheControl('private')`): never kept by a browser or a proxy. */
const PRIVATE = 'no-cache, private, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0';
/** Ghost's `caching.admin.maxAge`: the assets' names carry their content hash, so a year, immutable. */
const ASSETS = 'public, max-age=31536000, immutable';
/** What Ghost's permanent redirects carry. */
const REDIRECT = 'public, max-age=31536000';
/** What Express's final handler answers for an asset that is not there (Ghost serves assets with `fallthrough: false`). */
const NOT_FOUND_HTML =
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Not Found</pre>\n</body>\n</html>\n';

/**
 * Ghost's admin app at `<site path>ghost/`, as Ghost serves it (core/server/web/admin): the app's `index.html`
 * for `ghost/`, its `assets/` with a year's caching, and Ghost's redirects: `ghost` and any path without its
 * trailing slash get one (301), upper case is lowered (301), and any other path under `ghost/` becomes a client
 * route (`ghost/posts/` → 302 `ghost/#/posts/`). Paths under `ghost/api/` are the API's, matched or not.
 * Without a build in `dir`, `ghost/` answers a page saying how to fetch one.
 */
export function adminAppRoutes(app: FastifyInstance, { siteUrl, dir }: AdminAppOptions) {
  const root = `${new URL(siteUrl).pathname}ghost/`;
  const apiPrefix = `${root}api/`;
  const assetsDir = path.resolve(dir, 'assets');
  if (!existsSync(path.join(dir, 'index.html'))) {
    app.log.warn({ dir }, `no admin app build in ${dir}: ${root} answers how to fetch it (npm run admin:fetch)`);
  }

  // Ghost lowers the case of a path under the admin (its prettyUrls), after serving assets (whose names mix
  // cases); the API's own hook does so for /ghost/api/.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const [pathname, query] = splitUrl(request.url);
    const lower = pathname.toLowerCase();
    if (lower === pathname || !`${lower}/`.startsWith(root) || lower.startsWith(apiPrefix) || pathname.startsWith(`${root}assets/`)) return;
    return reply.header('Cache-Control', REDIRECT).redirect(withSlash(lower) + query, 301);
  });

  // `ghost/` and (the router ignores trailing slashes) `ghost`.
  app.get(root, async (request, reply) => {
    const [pathname, query] = splitUrl(request.url);
    if (!pathname.endsWith('/')) return reply.header('Cache-Control', REDIRECT).redirect(`${pathname}/${query}`, 301);
    return sendIndex(request, reply, dir);
  });

  app.get<{ Params: { '*': string } }>(`${root}assets/*`, async (request, reply) => {
    const segments = request.params['*'].split('/');
    if (segments.some((part) => part === '' || part === '.' || part === '..' || /[\\\0]/.test(part))) return assetNotFound(reply);
    return sendAsset(request, reply, path.join(assetsDir, ...segments));
  });

  app.get(`${root}*`, async (request, reply) => {
    const [pathname, query] = splitUrl(request.url);
    if (pathname.startsWith(apiPrefix) || `${pathname}/` === apiPrefix) return reply.callNotFound();
    if (!pathname.endsWith('/')) return reply.header('Cache-Control', REDIRECT).redirect(`${pathname}/${query}`, 301);
    // Ghost's comments-ui asks this frame whether a staff user is signed in; Ghost answers 204 without a session
    // cookie. Quire does not build the frame's page, so it answers 204 always: comments show no moderation tools.
    if (pathname === `${root}auth-frame/`) return reply.header('Cache-Control', 'public, max-age=0').status(204).send();
    const route = pathname.slice(root.length);
    return reply.header('Cache-Control', PRIVATE).redirect(`${root}#/${route}${query}`, 302);
  });
}

async function sendIndex(request: FastifyRequest, reply: FastifyReply, dir: string) {
  reply.header('Cache-Control', PRIVATE);
  let html: Buffer;
  try {
    html = await readFile(path.join(dir, 'index.html'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return reply.status(503).type('text/html; charset=utf-8').send(missingBuildPage());
  }
  // Ghost makes its own entity tag from the content: npm gives every file of a package the same time.
  const etag = createHash('md5').update(html).digest('hex');
  reply.header('ETag', etag).header('X-Frame-Options', 'sameorigin').type('text/html; charset=UTF-8');
  if (fresh(request.headers, { etag })) return reply.status(304).send();
  return reply.send(html);
}

async function sendAsset(request: FastifyRequest, reply: FastifyReply, file: string) {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return assetNotFound(reply);
  // serve-static's weak tag (size and time, in hex), as Ghost sends.
  const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const modified = info.mtime.toUTCString();
  reply.header('Cache-Control', ASSETS).header('ETag', etag).header('Last-Modified', modified).header('Content-Type', contentTypeOf(file));
  if (COMPRESSIBLE.test(file)) reply.header('Vary', 'Accept-Encoding');
  if (fresh(request.headers, { etag, 'last-modified': modified })) return reply.status(304).send();
  // The install keeps a gzipped copy of each text asset (fetch.ts).
  const gzipped = COMPRESSIBLE.test(file) && acceptsGzip(request) ? await stat(`${file}.gz`).catch(() => null) : null;
  if (gzipped?.isFile()) {
    reply.header('Content-Encoding', 'gzip').header('Content-Length', gzipped.size);
    return reply.send(createReadStream(`${file}.gz`));
  }
  reply.header('Content-Length', info.size);
  return reply.send(createReadStream(file));
}

function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  return typeof header === 'string' && /(^|,)\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[\d.]+)?\s*(,|$)/i.test(header);
}

function assetNotFound(reply: FastifyReply) {
  return reply
    .status(404)
    .header('Cache-Control', PRIVATE)
    .header('Content-Security-Policy', "default-src 'none'")
    .header('X-Content-Type-Options', 'nosniff')
    .type('text/html; charset=utf-8')
    .send(NOT_FOUND_HTML);
}

function splitUrl(url: string): [string, string] {
  const index = url.indexOf('?');
  return index === -1 ? [url, ''] : [url.slice(0, index), url.slice(index)];
}

const withSlash = (pathname: string) => (pathname.endsWith('/') ? pathname : `${pathname}/`);
