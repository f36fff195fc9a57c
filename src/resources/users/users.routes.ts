import type { FastifyInstance, FastifyRequest } from 'fastify';
import validator from 'validator';
import type { UserRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { actorOf } from '../../auth/actor.js';
import { assertIdParam } from '../../http/validate.js';
import { parseBody } from '../../http/parse-body.js';
import { OWNER_TRANSFER, PASSWORD_CHANGE, USER_EDIT } from './users.schemas.js';
import { parseInclude } from '../../browse/pagination.js';
import { parseBrowseParams } from '../../browse/params.js';
import { browseRows, pickEach } from '../../browse/browse.js';
import { USERS_BROWSE } from './users.browse.js';
import { assertSlugParam, pickRead } from '../../http/read-params.js';
import { findUserByEmail, findUserById, findUserBySlug, rolesOfUsers } from './users.queries.js';
import { presentStoredUser } from './users.present.js';
import { presentUsers, USER_INCLUDES } from './users.embed.js';
import { changePassword, editUser, resolveUserId, transferOwnership } from './users.service.js';
import { destroyUser } from './users.destroy.js';
import { presentStaffToken, readStaffToken, regenerateStaffToken } from './users.tokens.js';

type Query = Record<string, unknown>;
const frame = (method: string) => ({ docName: 'users', method });

export function usersRoutes(app: FastifyInstance) {
  const include = (query: Query) => parseInclude(query.include, USER_INCLUDES);
  // `filter` on a read is accepted and ignored, as in Ghost; `fields` applies, lookup key first.
  const one = async (request: FastifyRequest<{ Querystring: Query }>, user: UserRow | undefined, key: 'id' | 'slug' | 'email') => {
    if (!user) throw errors.notFound('User not found.');
    const includes = include(request.query);
    return { users: pickRead(await presentUsers(request.ctx.db, request.ctx.site.url, [user], includes), request.query, key, [...includes]) };
  };

  app.get<{ Querystring: Query }>('/users/', { config: { frame: frame('browse'), permission: 'user.browse' } }, async (request) => {
    const params = parseBrowseParams(request.query, { include: USER_INCLUDES });
    const { db, engine, site } = request.ctx;
    const { rows, meta } = await browseRows<UserRow>(db, engine, USERS_BROWSE, 'admin', params);
    return { users: pickEach(await presentUsers(db, site.url, rows, include(request.query)), params), meta };
  });

  const read = { config: { frame: frame('read'), permission: 'user.read' as const } };
  app.get<{ Params: { id: string }; Querystring: Query }>('/users/:id/', read, async (request) => {
    assertIdParam(request.params.id);
    return one(request, await findUserById(request.ctx.db, resolveUserId(actorOf(request.ctx), request.params.id)), 'id');
  });

  app.get<{ Params: { slug: string }; Querystring: Query }>('/users/slug/:slug/', read, async (request) => {
    assertSlugParam(request.params.slug);
    return one(request, await findUserBySlug(request.ctx.db, request.params.slug), 'slug');
  });

  app.get<{ Params: { email: string }; Querystring: Query }>('/users/email/:email/', read, async (request) => {
    if (!validator.isEmail(request.params.email)) throw errors.validation({ message: 'Validation (isEmail) failed for email', context: 'undefined.email' });
    return one(request, await findUserByEmail(request.ctx.db, request.params.email), 'email');
  });

  // Not one of the five controller verbs: errors keep their own message.
  app.put('/users/password/', { config: { frame: frame('changePassword') } }, async (request) => {
    await changePassword(request.ctx, parseBody(request, PASSWORD_CHANGE));
    return { password: [{ message: 'Password changed successfully.' }] };
  });

  app.put('/users/owner/', { config: { frame: frame('transferOwnership') } }, async (request) => {
    const users = await transferOwnership(request.ctx, parseBody(request, OWNER_TRANSFER));
    const roles = await rolesOfUsers(request.ctx.db, users.map((user) => user.id));
    return { users: users.map((user) => presentStoredUser(user, roles.get(user.id) ?? [])) };
  });

  app.put<{ Params: { id: string }; Querystring: Query }>('/users/:id/', { config: { frame: frame('edit') } }, async (request, reply) => {
    assertIdParam(request.params.id);
    const input = parseBody(request, USER_EDIT);
    const { ctx } = request;
    const { user, publicChange } = await editUser(ctx, resolveUserId(actorOf(ctx), request.params.id), input);
    if (publicChange) reply.header('X-Cache-Invalidate', '/*');
    return { users: await presentUsers(ctx.db, ctx.site.url, [user], include(request.query)) };
  });

  app.delete<{ Params: { id: string } }>('/users/:id/', { config: { frame: frame('destroy') } }, async (request, reply) => {
    assertIdParam(request.params.id);
    const filename = await destroyUser(request.ctx, request.params.id);
    reply.header('X-Cache-Invalidate', '/*');
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
