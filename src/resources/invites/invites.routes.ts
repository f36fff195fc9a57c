import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { errors } from '../../errors.js';
import { assertIdParam } from '../../http/validate.js';
import { parseBody } from '../../http/parse-body.js';
import { locationOf } from '../../http/location.js';
import { browseRoute } from '../../http/browse-route.js';
import { INVITES_BROWSE } from './invites.browse.js';
import type { InviteRow } from '../../db/schema.js';
import { findInvite } from './invites.queries.js';
import { presentInvite } from './invites.present.js';
import { addInvite, destroyInvite } from './invites.service.js';
import { INVITE_ADD } from './invites.schemas.js';

const frame = framesOf('invites');

export function invitesRoutes(app: FastifyInstance) {
  browseRoute<InviteRow>(app, {
    docName: 'invites',
    api: 'admin',
    spec: INVITES_BROWSE,
    permission: 'invite.browse',
    present: (_ctx, rows) => rows.map(presentInvite),
  });

  // Ghost's invite read takes no `fields`: it answers the whole invitation.
  app.get<{ Params: { id: string } }>('/invites/:id/', { config: { frame: frame('read'), permission: 'invite.read' } }, async (request) => {
    assertIdParam(request.params.id);
    const invite = await findInvite(request.ctx.db, request.params.id);
    if (!invite) throw errors.notFound('Invite not found.');
    return { invites: [presentInvite(invite)] };
  });

  // The permission row is checked with the invited role (Ghost's `Invite.permissible`), inside addInvite.
  app.post('/invites/', { config: { frame: frame('add') } }, async (request, reply) => {
    const invite = await addInvite(request.ctx, parseBody(request, INVITE_ADD));
    reply.status(201).header('Location', locationOf(request, invite.id));
    return { invites: [presentInvite(invite)] };
  });

  app.delete<{ Params: { id: string } }>('/invites/:id/', { config: { frame: frame('destroy'), permission: 'invite.destroy' } }, async (request, reply) => {
    assertIdParam(request.params.id);
    await destroyInvite(request.ctx, request.params.id);
    return reply.status(204).send();
  });
}
