import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { locationOf } from '../../http/location.js';
import { parseBody } from '../../http/parse-body.js';
import { NOTIFICATIONS_ADD } from './notifications.schemas.js';
import { addNotifications, browseNotifications, dismissNotification } from './notifications.service.js';

const frame = framesOf('notifications');

export function notificationsRoutes(app: FastifyInstance) {
  app.get('/notifications/', { config: { frame: frame('browse'), permission: 'notification.browse' } }, async (request) => ({
    notifications: await browseNotifications(request.ctx),
  }));

  app.post('/notifications/', { config: { frame: frame('add'), permission: 'notification.add' } }, async (request, reply) => {
    const added = await addNotifications(request.ctx, parseBody(request, NOTIFICATIONS_ADD));
    // Nothing new (every id known) is a 200 with an empty list, as in Ghost.
    if (added.length) reply.status(201).header('Location', locationOf(request, String(added[0]!.id)));
    return { notifications: added };
  });

  app.delete<{ Params: { id: string } }>(
    '/notifications/:id/',
    { config: { frame: frame('destroy'), permission: 'notification.destroy' } },
    async (request, reply) => {
      await dismissNotification(request.ctx, request.params.id);
      return reply.status(204).send();
    },
  );
}
