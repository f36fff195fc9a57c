import type { FastifyInstance } from 'fastify';
import { requestCtx, type CtxBase } from '../../ctx.js';
import { errors } from '../../errors.js';
import { framesOf } from '../../http/frame.js';
import { browseLinks, followLink, updateLinks } from './links.service.js';

type Query = Record<string, unknown>;
const frame = framesOf('links');

/**
 * Tracked newsletter links (Admin API). Hand-written: Ghost's links are not a browse resource (no paging, its own
 * order) and the bulk edit reads its own body.
 */
export function linksAdminRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Query }>('/links/', { config: { frame: frame('browse'), permission: 'link.browse' } }, async (request) =>
    browseLinks(request.ctx, typeof request.query.filter === 'string' ? request.query.filter : undefined),
  );

  app.put<{ Querystring: Query; Body: { bulk?: { action?: unknown; meta?: { link?: { to?: unknown } } } } | undefined }>(
    '/links/bulk/',
    { config: { frame: frame('bulkEdit'), permission: 'link.edit', invalidatesSite: false } },
    async (request, reply) => {
      const bulk = request.body?.bulk;
      if (bulk?.action !== 'updateLink') {
        throw errors.validation({ message: 'Validation (AllowedValues) failed for action', property: 'action' });
      }
      const filter = request.query.filter;
      if (typeof filter !== 'string' || !filter) throw errors.validation({ message: 'Validation (isRequired) failed for filter', property: 'filter' });
      const result = await updateLinks(request.ctx, filter, String(bulk.meta?.link?.to ?? ''));
      reply.header('X-Cache-Invalidate', '/r/*');
      return result;
    },
  );
}

/** `<site>/r/<slug>`: Ghost's link redirect, public; an unknown slug is the site's 404. */
export function linkRedirectRoutes(app: FastifyInstance, base: CtxBase) {
  const path = new URL(base.site.url).pathname;
  app.get<{ Params: { slug: string }; Querystring: Query }>(`${path}r/:slug`, async (request, reply) => {
    const member = typeof request.query.m === 'string' ? request.query.m : undefined;
    const to = await followLink(requestCtx(base, null), request.params.slug, member);
    if (!to) return reply.callNotFound();
    return reply.header('X-Robots-Tag', 'noindex, nofollow').redirect(to, 302);
  });
}
