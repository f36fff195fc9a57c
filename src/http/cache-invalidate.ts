import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../ctx.js';

/**
 * Ghost answers `X-Cache-Invalidate: /*` for every request that changes the public site, and fires
 * `site.changed` for every such answer. Here the event is recorded in the write's transaction (for a
 * route marked `invalidatesSite`, by `ctx.write`; where it depends on what changed, by the service), and
 * this hook derives the header from it, so an answer and its event never disagree. A marked route that
 * wrote nothing to the database (a theme deleted from storage) records the event on its own. A route
 * that sends another value (posts' preview URLs) sets the header itself, and keeps it.
 */
export async function cacheInvalidateHeader(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode >= 400 || !request.ctx) return payload;
  if (!request.ctx.siteChanged() && request.routeOptions.config.invalidatesSite) await announceSiteChange(request.ctx);
  if (request.ctx.siteChanged() && !reply.hasHeader('X-Cache-Invalidate')) reply.header('X-Cache-Invalidate', '/*');
  return payload;
}

/** Records `site.changed` on its own, for a change made outside the database (theme files). */
export function announceSiteChange(ctx: Ctx): Promise<void> {
  return ctx.write(async (w) => w.events.record('site.changed', {}));
}
