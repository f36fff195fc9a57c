import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../ctx.js';
import { parseBody } from '../../http/parse-body.js';
import { SETUP } from './setup.schemas.js';
import { actorOf } from '../../auth/actor.js';
import { errors } from '../../errors.js';
import { notFoundUrl } from '../../content/urls.js';
import { presentAdminUser } from '../users/users.present.js';
import { applySetup, assertSetupState, isSetup } from './setup.service.js';

export function setupRoutes(app: FastifyInstance) {
  const frame = { docName: 'authentication', method: 'setup' };
  const present = (ctx: Ctx, user: Parameters<typeof presentAdminUser>[0]) => ({ users: [presentAdminUser(user, { url: notFoundUrl(ctx.site.url) })] });

  app.get('/authentication/setup/', { config: { auth: 'public', frame } }, async ({ ctx }) => ({ setup: [{ status: await isSetup(ctx.db) }] }));

  app.post('/authentication/setup/', { config: { auth: 'public', frame, invalidatesSite: true } }, async (request, reply) => {
    const input = parseBody(request, SETUP);
    await assertSetupState(request.ctx.db, false);
    const owner = await applySetup(request.ctx, input, true);
    reply.status(201);
    return present(request.ctx, owner);
  });

  app.put('/authentication/setup/', { config: { frame, invalidatesSite: true } }, async (request) => {
    const actor = actorOf(request.ctx);
    if (!actor.user || actor.role !== 'Owner') throw errors.noPermission('You are not the site owner.');
    const input = parseBody(request, SETUP);
    await assertSetupState(request.ctx.db, true);
    const owner = await applySetup(request.ctx, input, false);
    return present(request.ctx, owner);
  });
}
