import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { actorOf } from '../../auth/actor.js';
import { parseInclude } from '../../browse/include.js';
import { viewRoutes } from '../../http/view-routes.js';
import { assertIdParam } from '../../http/validate.js';
import { parseBody } from '../../http/parse-body.js';
import { OWNER_TRANSFER, PASSWORD_CHANGE, USER_EDIT } from './users.schemas.js';
import { USERS_BROWSE } from './users.browse.js';
import { findUserByEmail, findUserById, findUserBySlug, rolesOfUsers } from './users.queries.js';
import { presentStoredUser } from './users.present.js';
import { presentUsers, USER_INCLUDES } from './users.embed.js';
import { changePassword, editUser, resolveUserId, transferOwnership } from './users.service.js';
import { destroyUser } from './users.destroy.js';
import { presentStaffToken, readStaffToken, regenerateStaffToken } from './users.tokens.js';

type Query = Record<string, unknown>;
const frame = framesOf('users');

export function usersRoutes(app: FastifyInstance) {
  const include = (query: Query) => parseInclude(query.include, USER_INCLUDES);

  viewRoutes(app, {
    docName: 'users',
    spec: USERS_BROWSE,
    object: 'user',
    include: USER_INCLUDES,
    keys: ['id', 'slug', 'email'],
    notFound: 'User not found.',
    find: (ctx, key) =>
      'id' in key
        ? findUserById(ctx.db, resolveUserId(actorOf(ctx), key.id))
        : 'slug' in key
          ? findUserBySlug(ctx.db, key.slug)
          : findUserByEmail(ctx.db, key.email),
    view: (ctx, rows, include) => presentUsers(ctx.db, ctx.site.url, rows, include),
  });

  // Not one of the five controller verbs: errors keep their own message.
  app.put('/users/password/', { config: { frame: frame('changePassword') } }, async (request) => {
    await changePassword(request.ctx, parseBody(request, PASSWORD_CHANGE));
    return { password: [{ message: 'Password changed successfully.' }] };
  });

  app.put('/users/owner/', { config: { frame: frame('transferOwnership') } }, async (request) => {
    const users = await transferOwnership(request.ctx, parseBody(request, OWNER_TRANSFER));
    const roles = await rolesOfUsers(
      request.ctx.db,
      users.map((user) => user.id),
    );
    return { users: users.map((user) => presentStoredUser(user, roles.get(user.id) ?? [])) };
  });

  app.put<{ Params: { id: string }; Querystring: Query }>('/users/:id/', { config: { frame: frame('edit') } }, async (request) => {
    assertIdParam(request.params.id);
    const input = parseBody(request, USER_EDIT);
    const { ctx } = request;
    const { user } = await editUser(ctx, resolveUserId(actorOf(ctx), request.params.id), input);
    return { users: await presentUsers(ctx.db, ctx.site.url, [user], include(request.query)) };
  });

  app.delete<{ Params: { id: string } }>('/users/:id/', { config: { frame: frame('destroy'), invalidatesSite: true } }, async (request) => {
    assertIdParam(request.params.id);
    const filename = await destroyUser(request.ctx, request.params.id);
    return { meta: { filename } };
  });

  app.get<{ Params: { id: string } }>('/users/:id/token/', { config: { frame: frame('readToken') } }, async (request) => {
    assertIdParam(request.params.id);
    return { apiKey: presentStaffToken(await readStaffToken(request.ctx, request.params.id)) };
  });

  app.put<{ Params: { id: string } }>('/users/:id/token/', { config: { frame: frame('regenerateToken') } }, async (request) => {
    assertIdParam(request.params.id);
    return { apiKey: presentStaffToken(await regenerateStaffToken(request.ctx, request.params.id)) };
  });
}
