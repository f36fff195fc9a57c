import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import { assertIdParam } from '../../http/validate.js';
import { findPost } from '../posts/posts.queries.js';
import { adminPosts } from '../posts/posts.responses.js';
import { publishOnSchedulerCall } from '../posts/posts.schedule.js';
import { ADMIN_DEFAULT_INCLUDES } from '../posts/posts.schemas.js';

type Params = { resource: string; id: string };

const TYPES = { posts: 'post', pages: 'page' } as const;

/**
 * `PUT /schedules/:resource/:id/`, the callback Ghost's scheduler calls at a post's time with an admin-key
 * token in `?token=`. Quire's own job runner publishes scheduled posts without it; the route is here for
 * clients and external schedulers that call it. Body `{force: true}` publishes a post more than two minutes late.
 */
export function schedulesRoutes(app: FastifyInstance) {
  app.put<{ Params: Params }>(
    '/schedules/:resource/:id/',
    { config: { frame: { docName: 'schedules', method: 'publish' }, permission: 'post.publish', auth: 'url-token', invalidatesSite: true } },
    async (request) => {
      const { resource, id } = request.params;
      if (!(resource in TYPES)) throw errors.validation('Validation (AllowedValues) failed for resource');
      assertIdParam(id);
      const type = TYPES[resource as keyof typeof TYPES];
      const force = (request.body as { force?: unknown } | undefined)?.force === true;
      await publishOnSchedulerCall(request.ctx, type, id, force);
      const row = await findPost(request.ctx.db, { id }, { type });
      const view = { siteUrl: request.ctx.site.url, engine: request.ctx.engine, include: ADMIN_DEFAULT_INCLUDES[type], formats: new Set(['lexical'] as const) };
      return { [resource]: await adminPosts(request.ctx.db, [row!], view) };
    },
  );
}
