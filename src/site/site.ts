import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import { createHash } from 'node:crypto';
import { requestCtx, type Ctx, type CtxBase } from '../ctx.js';
import type { ContentVersions } from '../events/content-version.js';
import type { ResponseCache } from '../http/response-cache.js';
import { ThemeStore } from './theme-store.js';
import { siteRedirect, type SiteRoutes } from './routing.js';
import { NO_STORE, REDIRECT_CACHE, errorAnswer, pageAnswer } from './answer.js';
import { GhostError } from '../errors.js';
import { LIMITERS, hit } from '../auth/brute.js';
import { SiteConfigStore } from './site-config.js';
import { findRedirect } from '../resources/redirects/redirects.parse.js';
import { renderPage } from './render.js';
import { hasMemberCookie, type SiteMemberResolver } from './member.js';
import { serveSiteFile } from './files.js';
import { directReads } from './data.js';
import { Snapshots, type SiteGlobals } from './snapshot.js';
import { PREVIEW_HEADER, previewOf } from './design-preview.js';
import { readAllSettings } from '../settings/settings.js';
import {
  OPEN_WHEN_PRIVATE,
  PRIVATE_ROBOTS,
  forwardPath,
  hasPrivateSession,
  privateFeedPath,
  privateSessionCookie,
  privateState,
  renderDefaultPrivatePage,
} from './private.js';

export interface SiteDeps {
  base: CtxBase;
  /** The content version every instance agrees on: pages computed at an older one are never served. */
  versions: ContentVersions;
  /** Rendered pages kept in memory (shared with the Content API's cache), or null with the cache off. */
  cache: ResponseCache | null;
  /** Fixed routes instead of the uploaded routes.yaml (Ghost's defaults when neither is given). */
  routes?: SiteRoutes;
  /** The signed-in member of a request (the Members API's); without it every reader is a visitor. */
  member?: SiteMemberResolver;
}

/** Paths the site never answers: the APIs, the admin app, members, uploads and Quire's own endpoints have their handlers. */
const NOT_SITE = /^\/(ghost|members|content|_quire)(\/|$)|^\/public\/(portal|sodo-search|announcement-bar)(\/|$)/;

export interface Site {
  /** Whether `path` (within the site) is the site's to answer. */
  owns(method: string, path: string): boolean;
  handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  /** `POST /private/`: the password form of a private site. */
  privateLogin(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  close(): Promise<void>;
}

/** Routes that match nothing: a page refused outright renders the theme's 404. */
const NO_ROUTES: SiteRoutes = { custom: [], collections: [], taxonomies: [] };

/**
 * The public site: every GET and HEAD outside the APIs, rendered by the active theme. Redirects first (as
 * Ghost's site middleware), then site files (theme assets, robots, favicon, sitemaps), then pages through the
 * page cache, then the theme's error page.
 */
export function createSite({ base, versions, cache, routes, member: resolveMember }: SiteDeps): Site {
  const themes = new ThemeStore();
  const configs = new SiteConfigStore(routes);
  const sitePath = new URL(base.site.url).pathname;
  // The site only reads: one visitor ctx serves every request without a member.
  const visitorCtx = requestCtx(base, null);
  // Published content and settings read once per content version, shared by the renders of that version.
  const snapshots = new Snapshots(() => visitorCtx);

  return {
    owns(method, path) {
      // Ghost answers a page posted as it answers a GET: the Design screen's preview posts it (design-preview.ts).
      if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return false;
      if (!path.startsWith(sitePath) && `${path}/` !== sitePath) return false;
      return !NOT_SITE.test(`/${path.slice(sitePath.length)}`);
    },

    async handle(request, reply) {
      const [rawPath, query = ''] = request.url.split(/\?(.*)/s) as [string, string?];
      const search = query ? `?${query}` : '';
      let relativeUrl = `/${rawPath.slice(sitePath.length)}`;
      let refuseFeed = false;
      const version = await versions.current();
      // The routes, redirects and settings of this version: each read once per version, then kept.
      const [config, globals] = await Promise.all([configs.at(visitorCtx, version), snapshots.at(version).globals()]);
      // The uploaded redirects come first, before the site's own (Ghost's custom redirects middleware).
      const custom = findRedirect(config.redirects, relativeUrl + search, sitePath);
      if (custom) return reply.header('Cache-Control', custom.cacheControl).redirect(custom.location, custom.status);
      // A private site answers only the password form and its open files until the visitor has given the password.
      const secret = privateState(globals.values);
      if (secret) {
        reply.header('X-Robots-Tag', 'noindex');
        const verified = hasPrivateSession(request.cookies ?? {}, secret);
        const feed = privateFeedPath(relativeUrl, secret);
        if (relativeUrl === '/private/') {
          if (verified) return reply.header('Cache-Control', NO_STORE).redirect(base.site.url, 302);
          return sendPrivatePage(request, reply, null, version, globals);
        }
        if (relativeUrl === '/robots.txt') return reply.header('Cache-Control', 'public, max-age=3600').type('text/plain').send(PRIVATE_ROBOTS);
        if (feed) relativeUrl = feed;
        else if (!OPEN_WHEN_PRIVATE(relativeUrl)) {
          if (!verified) return reply.redirect(`${sitePath}private/?r=${encodeURIComponent(relativeUrl + search)}`, 302);
          // Ghost serves no feeds on a private site except under the secret path.
          refuseFeed = /\/rss\/$/.test(relativeUrl);
        }
      }
      const redirect = siteRedirect(relativeUrl, search);
      if (redirect) {
        reply.header('Cache-Control', REDIRECT_CACHE);
        return reply.redirect(`${sitePath.slice(0, -1)}${redirect}`, 301);
      }
      // A private site's pages are never kept or served from the shared cache: each visitor proved the password.
      // Previews show drafts (and take `member_status`): never kept either.
      // So are the Design screen's previews of settings not saved yet.
      const preview = request.method === 'POST' ? previewOf(request.headers[PREVIEW_HEADER]) : null;
      const personal = hasMemberCookie(request.cookies ?? {}) || secret !== null || relativeUrl.startsWith('/p/') || preview !== null;
      const key = `site\n${relativeUrl}`;
      if (cache && !personal) {
        // A kept page before the member, site files and rendering are looked at: only pages are kept (never a
        // site file), and only while the content version they were rendered at is the latest.
        const kept = cache.get(key);
        if (kept?.version === version) return send(request, reply, kept.body, kept.etag, kept.headers as Record<string, string>, 200);
      }
      // A signed-in member's pages are rendered with their access (gated content, `@member`), never shared.
      const member = personal && resolveMember ? await resolveMember(requestCtx(base, null), request) : null;
      const ctx: Ctx = member ? { ...requestCtx(base, null), member: member.access } : visitorCtx;
      if (await serveSiteFile(request, reply, { ctx, relativeUrl, theme: () => themes.active(ctx, version) })) return reply;
      const answer = await pageAnswer(
        { themes, snapshots },
        { request, ctx, version, relativeUrl, member, config: refuseFeed ? { ...config, routes: NO_ROUTES } : config, personal, preview },
      );
      // Ghost's private router comes after every other: on a public site, `/private/` not taken by a page goes home.
      if (!secret && relativeUrl === '/private/' && answer.status === 404) return reply.header('Cache-Control', NO_STORE).redirect(base.site.url, 302);
      if (answer.location) {
        reply.header('Cache-Control', answer.cacheControl);
        if (answer.absolute) return reply.redirect(answer.location, answer.redirectStatus ?? 302);
        return reply.redirect(`${sitePath.slice(0, -1)}${answer.location}${search}`, answer.redirectStatus ?? 301);
      }
      const etag = entityTag(answer.body);
      const headers = {
        'content-type': answer.type,
        'cache-control': secret
          ? NO_STORE
          : answer.noStore
            ? answer.cacheControl
            : personal
              ? 'private, no-cache, no-store, must-revalidate, max-age=0'
              : answer.cacheControl,
      };
      if (cache && !personal && answer.status === 200) cache.set(key, { version, body: answer.body, etag, headers });
      return send(request, reply, answer.body, etag, headers, answer.status);
    },

    async privateLogin(request, reply) {
      const version = await versions.current();
      const secret = privateState((await readAllSettings(base.db)) as ReadonlyMap<string, string | null>);
      reply.header('Cache-Control', NO_STORE);
      if (!secret || hasPrivateSession(request.cookies ?? {}, secret)) return reply.redirect(base.site.url, 302);
      reply.header('X-Robots-Tag', 'noindex');
      const refused = await guessesRefused(request, version);
      if (refused) return reply.code(refused.status).header('Cache-Control', NO_STORE).type(refused.type).send(refused.body);
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (typeof body.password === 'string' && body.password === secret.password) {
        const forward = forwardPath((request.query as Record<string, unknown>).r, base.site.url);
        reply.header('Set-Cookie', privateSessionCookie(secret.password, base.clock.now()));
        return reply.redirect(`${sitePath.slice(0, -1)}${forward}`, 302);
      }
      return sendPrivatePage(request, reply, { message: 'Incorrect password.' }, version, await snapshots.at(version).globals());
    },

    close: () => themes.close(),
  };

  /** Ghost's limit on the password form: 100 tries per IP an hour, then its 429 page in the theme's error template. */
  async function guessesRefused(request: FastifyRequest, version: number) {
    try {
      await hit(base.db, LIMITERS.privateBlog, request.ip, 'privateblog', base.clock.epochMs());
      return null;
    } catch (err) {
      if (!(err instanceof GhostError && err.status === 429)) throw err;
      const [theme, globals] = await Promise.all([themes.active(visitorCtx, version), snapshots.at(version).globals()]);
      const pageRequest = {
        ctx: visitorCtx,
        theme,
        relativeUrl: '/private/',
        member: null,
        log: request.log,
        version,
        globals,
        reads: directReads(visitorCtx),
      };
      return errorAnswer(pageRequest, 429, err.message, request.log);
    }
  }

  /** The password form: the theme's `private.hbs`, else the site's own page. */
  async function sendPrivatePage(request: FastifyRequest, reply: FastifyReply, error: { message: string } | null, version: number, globals: SiteGlobals) {
    const ctx = visitorCtx;
    const theme = await themes.active(ctx, version);
    let html: string;
    if (theme.hasTemplate('private')) {
      // A private site's pages read for themselves (never the data kept for the public site's visitors).
      const pageRequest = {
        ctx,
        theme,
        relativeUrl: '/private/',
        member: null,
        log: request.log,
        context: ['private'],
        version,
        globals,
        reads: directReads(ctx),
      };
      html = await renderPage(pageRequest, 'private', error ? { error } : {});
    } else {
      html = renderDefaultPrivatePage({ site: globals.site, error, basePath: sitePath, assetHash: theme.assetHash });
    }
    return reply.code(200).header('Cache-Control', NO_STORE).type('text/html; charset=utf-8').send(html);
  }
}

function send(request: FastifyRequest, reply: FastifyReply, body: Buffer, etag: string, headers: Record<string, string>, status: number) {
  reply.code(status).headers(headers).header('ETag', etag);
  if (status === 200 && fresh(request.headers, { etag })) return reply.code(304).removeHeader('content-type').send();
  return reply.send(body);
}

/** Weak, as Express tags Ghost's pages: the length and a hash of the bytes. */
function entityTag(body: Buffer): string {
  return `W/"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64').slice(0, 27)}"`;
}
