import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect.js';
import { parseBody } from '../../http/parse-body.js';
import { SETUP } from './setup.schemas.js';
import { actorOf } from '../../http/actor.js';
import { errors } from '../../errors.js';
import { notFoundUrl } from '../../content/urls.js';
import { presentAdminUser } from '../users/users.present.js';
import { applySetup, assertSetupState, isSetup } from './setup.service.js';

export function setupRoutes(app: FastifyInstance, { db, siteUrl }: { db: Db; siteUrl: string }) {
  const frame = { docName: 'authentication', method: 'setup' };
  const present = (user: Parameters<typeof presentAdminUser>[0]) => ({ users: [presentAdminUser(user, { url: notFoundUrl(siteUrl) })] });

  app.get('/authentication/setup/', { config: { auth: 'public', frame } }, async () => ({ setup: [{ status: await isSetup(db) }] }));

  app.post('/authentication/setup/', { config: { auth: 'public', frame } }, async (request, reply) => {
    const input = parseBody(request, SETUP);
    await assertSetupState(db, false);
    const owner = await applySetup(db, input, siteUrl, true);
    reply.status(201).header('X-Cache-Invalidate', '/*');
    return present(owner);
  });

  app.put('/authentication/setup/', { config: { frame } }, async (request, reply) => {
    if (!actorOf(request).user || actorOf(request).role !== 'Owner') throw errors.noPermission('You are not the site owner.');
    const input = parseBody(request, SETUP);
    await assertSetupState(db, true);
    const owner = await applySetup(db, input, siteUrl, false);
    reply.header('X-Cache-Invalidate', '/*');
    return present(owner);
  });
}
