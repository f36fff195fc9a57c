import type { FastifyRequest } from 'fastify';
import { mimeTypes } from '../storage/content-type.js';
import type { Ctx } from '../ctx.js';
import { GhostError } from '../errors.js';
import type { ThemeStore } from './theme-store.js';
import { dataOwnerPath, matchRoutes } from './routing.js';
import { MovedTo, planPage, type PagePlan } from './pages.js';
import type { SiteConfig } from './site-config.js';
import { renderPage, type PageRequest } from './render.js';
import { errorTemplate } from './templates.js';
import type { SiteMember } from './member.js';
import { feedFor, type FeedSources } from './rss.js';
import { directReads } from './data.js';
import type { SitePreview } from './design-preview.js';
import type { Snapshots } from './snapshot.js';

/** What a site path answers with, before the request's own rules (private site, member, page cache) apply. */
export interface Answer {
  status: number;
  type: string;
  body: Buffer;
  cacheControl: string;
  /** A redirect's target (a post's permalink under another collection), within the site unless `absolute`. */
  location?: string;
  redirectStatus?: 301 | 302;
  absolute?: boolean;
  /** Its own Cache-Control stands, whoever asked (a draft preview's). */
  noStore?: boolean;
}

const PAGE_CACHE = 'public, max-age=0';
const ERROR_CACHE = 'no-cache, max-age=0, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0';
export const REDIRECT_CACHE = 'public, max-age=31536000';
/** Ghost's caching header for a private site's pages and for pages that must never be kept. */
export const NO_STORE = 'no-cache, private, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0';

/** The site's long-lived parts a page is rendered with. */
export interface PageSources {
  themes: ThemeStore;
  snapshots: Snapshots;
}

/** One page request, as the site has resolved it. */
export interface PageAsk {
  request: FastifyRequest;
  ctx: Ctx;
  version: number;
  relativeUrl: string;
  member: SiteMember | null;
  config: SiteConfig;
  /** A member's, a private site's or a preview's page: read for this reader, never from the shared snapshot. */
  personal: boolean;
  /** Settings the Design screen previews, laid over `@site` and `@custom`. */
  preview?: SitePreview | null;
}

/**
 * A path's answer: the first route that has something there (a feed, a page, a redirect to the data's owner),
 * else the theme's error page.
 */
export async function pageAnswer(
  { themes, snapshots }: PageSources,
  { request, ctx, version, relativeUrl, member, config, personal, preview = null }: PageAsk,
): Promise<Answer> {
  const snapshot = snapshots.at(version);
  const [theme, links, globals] = await Promise.all([themes.active(ctx, version), config.permalinks(ctx), snapshot.globals()]);
  // A personal page (a member's, a private site's, a draft preview) reads for itself: a member's reads carry
  // their access, and a preview's draft is no part of the published content kept for this version.
  const reads = personal ? directReads(ctx) : snapshot.reads;
  const sources: FeedSources = {
    reads,
    settings: globals.values,
    keep: personal ? (_key, make) => make() : (key, make) => snapshot.keep(key, make),
  };
  const pageRequest = { ctx, theme, relativeUrl, member: member?.data ?? null, log: request.log, version, postUrl: links.postUrl, globals, reads, preview };
  try {
    // Each route the path matches is tried in Ghost's order; one with nothing there passes it on (Ghost's `next()`).
    let plan: PagePlan | null = null;
    let notFound: unknown = new GhostError('NotFoundError', { message: 'Page not found' });
    let first = true;
    for (const match of matchRoutes(config.routes, relativeUrl)) {
      const owner = dataOwnerPath(config.routes, match);
      if (owner) return { status: 301, type: 'text/plain', body: Buffer.alloc(0), cacheControl: REDIRECT_CACHE, location: owner };
      try {
        if ((match.kind === 'collection' || match.kind === 'channel' || match.kind === 'taxonomy') && match.rss) {
          const feed = await feedFor(ctx, sources, match, links);
          return { status: 200, type: 'application/rss+xml; charset=utf-8', body: Buffer.from(feed), cacheControl: PAGE_CACHE };
        }
        plan = await planPage(ctx, reads, theme, match, relativeUrl, links, request.query as Record<string, unknown>);
        break;
      } catch (err) {
        if (err instanceof MovedTo) {
          const cacheControl = err.status === 301 ? REDIRECT_CACHE : NO_STORE;
          return {
            status: err.status,
            type: 'text/plain',
            body: Buffer.alloc(0),
            cacheControl,
            location: err.path,
            redirectStatus: err.status,
            absolute: err.absolute,
          };
        }
        if (!(err instanceof GhostError && err.status === 404)) throw err;
        if (first) notFound = err;
        first = false;
      }
    }
    if (!plan) throw notFound;
    const found = plan;
    // Whatever fails while the theme renders is the theme's fault or ours, never the visitor's: a 500.
    const html = await renderPage({ ...pageRequest, context: found.context }, found.template, found.data, found.page).catch((err: unknown) => {
      throw new TemplateError(err);
    });
    const type = (found.type && mimeTypes().contentType(found.type)) || 'text/html; charset=utf-8';
    return { status: 200, type, body: Buffer.from(html), cacheControl: found.noStore ? ERROR_CACHE : PAGE_CACHE, noStore: found.noStore === true };
  } catch (err) {
    // As Ghost: a missing resource and a request its API refuses (a bad slug or page) are both a 404.
    const status = err instanceof GhostError && err.status < 500 ? 404 : 500;
    if (err instanceof TemplateError) err = err.cause;
    if (status === 500) request.log.error({ err }, 'site page failed');
    const message = err instanceof GhostError && err.status === 404 ? err.message : status === 404 ? 'Page not found' : 'The server has encountered an error.';
    return errorAnswer(pageRequest, status, message, request.log);
  }
}

/** The theme's error page for `status` (`error-429.hbs`, `error-4xx.hbs`, `error.hbs`, else Ghost's own). */
export async function errorAnswer(pageRequest: Omit<PageRequest, 'context'>, status: number, message: string, log: FastifyRequest['log']): Promise<Answer> {
  try {
    const template = errorTemplate(pageRequest.theme, status);
    const html = await renderPage({ ...pageRequest, context: [] }, template, { message, statusCode: status, errorDetails: [] });
    return { status, type: 'text/html; charset=utf-8', body: Buffer.from(html), cacheControl: ERROR_CACHE };
  } catch (inner) {
    log.error({ err: inner }, 'the theme error template failed');
    const text = `<h1>Oops, seems there is an error in the error template.</h1>`;
    return { status: 500, type: 'text/html; charset=utf-8', body: Buffer.from(text), cacheControl: ERROR_CACHE };
  }
}

/** An error raised while a template rendered (a helper's refusal included). */
class TemplateError extends Error {
  constructor(override readonly cause: unknown) {
    super('template error');
  }
}
