import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import { createHash } from 'node:crypto';
import { requestCtx, type Ctx, type CtxBase } from '../ctx.js';
import { GhostError } from '../errors.js';
import type { ContentVersions } from '../events/content-version.js';
import type { ResponseCache } from '../http/response-cache.js';
import { ThemeStore } from './theme-store.js';
import { DEFAULT_ROUTES, matchRoute, siteRedirect, type SiteRoutes } from './routing.js';
import { planPage } from './pages.js';
import { renderPage } from './render.js';
import { errorTemplate } from './templates.js';
import { hasMemberCookie, type SiteMember, type SiteMemberResolver } from './member.js';
import { serveSiteFile } from './files.js';
import { feedFor } from './rss.js';
import { directReads } from './data.js';
import { Snapshots } from './snapshot.js';

export interface SiteDeps {
  base: CtxBase;
  /** The content version every instance agrees on: pages computed at an older one are never served. */
  versions: ContentVersions;
  /** Rendered pages kept in memory (shared with the Content API's cache), or null with the cache off. */
  cache: ResponseCache | null;
  routes?: SiteRoutes;
  /** The signed-in member of a request (the Members API's); without it every reader is a visitor. */
  member?: SiteMemberResolver;
}

/** Paths the site never answers: the APIs, the admin app, members, uploads and Quire's own endpoints have their handlers. */
const NOT_SITE = /^\/(ghost|members|content|_quire)(\/|$)|^\/public\/(portal|sodo-search)(\/|$)/;

export interface Site {
  /** Whether `path` (within the site) is the site's to answer. */
  owns(method: string, path: string): boolean;
  handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  type: string;
  body: Buffer;
  cacheControl: string;
}

const PAGE_CACHE = 'public, max-age=0';
const ERROR_CACHE = 'no-cache, max-age=0, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0';
const REDIRECT_CACHE = 'public, max-age=31536000';

/**
 * The public site: every GET and HEAD outside the APIs, rendered by the active theme. Redirects first (as
 * Ghost's site middleware), then site files (theme assets, robots, favicon, sitemaps), then pages through the
 * page cache, then the theme's error page.
 */
export function createSite({ base, versions, cache, routes = DEFAULT_ROUTES, member: resolveMember }: SiteDeps): Site {
  const themes = new ThemeStore();
  const sitePath = new URL(base.site.url).pathname;
  // The site only reads: one visitor ctx serves every request without a member.
  const visitorCtx = requestCtx(base, null);
  const snapshots = new Snapshots(() => visitorCtx);

  async function render(
    request: FastifyRequest,
    ctx: Ctx,
    version: number,
    relativeUrl: string,
    member: SiteMember | null,
    personal: boolean,
  ): Promise<Answer> {
    const snapshot = snapshots.at(version);
    const [theme, globals] = await Promise.all([themes.active(ctx, version), snapshot.globals()]);
    // A request with a member cookie reads for itself (a member's reads carry their access): never the ones kept for visitors.
    const reads = personal ? directReads(ctx) : snapshot.reads;
    const pageRequest = { ctx, theme, relativeUrl, member: member?.data ?? null, log: request.log, globals, reads };
    try {
      const match = matchRoute(routes, relativeUrl);
      if (!match) throw new GhostError('NotFoundError', { message: 'Page not found' });
      if ((match.kind === 'collection' || match.kind === 'taxonomy') && match.rss) {
        const keep = personal ? <T>(_: string, make: () => T) => make() : <T>(key: string, make: () => T) => snapshot.keep(key, make);
        const feed = await feedFor(ctx, { reads, settings: globals.values, keep }, routes, match);
        return { status: 200, type: 'application/rss+xml; charset=utf-8', body: Buffer.from(feed), cacheControl: PAGE_CACHE };
      }
      const plan = await planPage(reads, theme, routes, match, relativeUrl);
      // Whatever fails while the theme renders is the theme's fault or ours, never the visitor's: a 500.
      const html = await renderPage({ ...pageRequest, context: plan.context }, plan.template, plan.data, plan.page).catch((err: unknown) => {
        throw new TemplateError(err);
      });
      return { status: 200, type: 'text/html; charset=utf-8', body: Buffer.from(html), cacheControl: PAGE_CACHE };
    } catch (err) {
      // As Ghost: a missing resource and a request its API refuses (a bad slug or page) are both a 404.
      const status = err instanceof GhostError && err.status < 500 ? 404 : 500;
      if (err instanceof TemplateError) err = err.cause;
      if (status === 500) request.log.error({ err }, 'site page failed');
      const message =
        err instanceof GhostError && err.status === 404 ? err.message : status === 404 ? 'Page not found' : 'The server has encountered an error.';
      try {
        const html = await renderPage({ ...pageRequest, context: [] }, errorTemplate(theme, status), { message, statusCode: status, errorDetails: [] });
        return { status, type: 'text/html; charset=utf-8', body: Buffer.from(html), cacheControl: ERROR_CACHE };
      } catch (inner) {
        request.log.error({ err: inner }, 'the theme error template failed');
        const text = `<h1>Oops, seems there is an error in the error template.</h1>`;
        return { status: 500, type: 'text/html; charset=utf-8', body: Buffer.from(text), cacheControl: ERROR_CACHE };
      }
    }
  }

  return {
    owns(method, path) {
      if (method !== 'GET' && method !== 'HEAD') return false;
      if (!path.startsWith(sitePath) && `${path}/` !== sitePath) return false;
      return !NOT_SITE.test(`/${path.slice(sitePath.length)}`);
    },

    async handle(request, reply) {
      const [rawPath, query = ''] = request.url.split(/\?(.*)/s) as [string, string?];
      const search = query ? `?${query}` : '';
      const relativeUrl = `/${rawPath.slice(sitePath.length)}`;
      const redirect = siteRedirect(relativeUrl, search);
      if (redirect) {
        reply.header('Cache-Control', REDIRECT_CACHE);
        return reply.redirect(`${sitePath.slice(0, -1)}${redirect}`, 301);
      }
      const personal = hasMemberCookie(request.cookies ?? {});
      const key = `site\n${relativeUrl}`;
      let version: number | undefined;
      if (cache && !personal) {
        // A kept page first, before anything else is looked at: only pages are kept (never a site file), and
        // only while the content version they were rendered at is the latest.
        version = await versions.current();
        const kept = cache.get(key);
        if (kept?.version === version) return send(request, reply, kept.body, kept.etag, kept.headers as Record<string, string>, 200);
      }
      // A signed-in member's pages are rendered with their access (gated content, `@member`), never shared.
      const member = personal && resolveMember ? await resolveMember(requestCtx(base, null), request) : null;
      const ctx: Ctx = member ? { ...requestCtx(base, null), member: member.access } : visitorCtx;
      const at = version ?? (await versions.current());
      if (await serveSiteFile(request, reply, { ctx, relativeUrl, theme: () => themes.active(ctx, at) })) return reply;
      const answer = await render(request, ctx, at, relativeUrl, member, personal);
      const etag = entityTag(answer.body);
      const headers = {
        'content-type': answer.type,
        'cache-control': personal ? 'private, no-cache, no-store, must-revalidate, max-age=0' : answer.cacheControl,
      };
      if (cache && !personal && answer.status === 200) cache.set(key, { version: at, body: answer.body, etag, headers });
      return send(request, reply, answer.body, etag, headers, answer.status);
    },

    close: () => themes.close(),
  };
}

/** An error raised while a template rendered (a helper's refusal included). */
class TemplateError extends Error {
  constructor(override readonly cause: unknown) {
    super('template error');
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
