import type { FastifyInstance, FastifyReply } from 'fastify';
import { framesOf } from '../../http/frame.js';
import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { actorOf } from '../../auth/actor.js';
import { parseInclude } from '../../browse/include.js';
import { browseRoute } from '../../http/browse-route.js';
import { readRoutes } from '../../http/read-routes.js';
import { assertIdParam } from '../../http/validate.js';
import { locationOf } from '../../http/location.js';
import { POST_TYPES_BROWSE } from './posts.browse.js';
import type { PostRow } from '../../db/schema.js';
import { filterWhere } from '../../filter/filter.js';
import { POSTS_FILTER } from './posts.filter.js';
import { ADMIN_DEFAULT_INCLUDES, ADMIN_INCLUDES, DOC_NAME, FORMATS, POST_ADD, POST_BULK, POST_EDIT, type Format, type PostType } from './posts.schemas.js';
import { parseBody } from '../../http/parse-body.js';
import { flag, parseSource, postFormats, writeFormats } from './posts.options.js';
import { findPost, findSavedPost, type PostWhere } from './posts.queries.js';
import { adminPosts, type AdminView } from './posts.responses.js';
import { addPost, destroyPost, editPost, type WriteResult } from './posts.service.js';
import type { WriteOptions } from './posts.prepare.js';
import { checkBulkPermission } from './posts.permissions.js';
import { copyPost } from './posts.copy.js';
import { bulkDestroy, bulkEdit } from './posts.bulk.js';
import { longTextJson } from '../../http/long-text-json.js';

type Query = Record<string, unknown>;
type Params = { id: string };

/**
 * Admin API posts and pages (one route set per type): browse, read by id or slug, add, edit, copy,
 * delete and the bulk endpoints, with Ghost's statuses and cache headers.
 */
export function postsAdminRoutes(app: FastifyInstance, type: PostType) {
  const docName = DOC_NAME[type];
  const frame = framesOf(docName);
  // Relations: Ghost's defaults unless the request names its own. Formats: lexical always,
  // plus whatever the request adds.
  const view = (ctx: Ctx, query: Query, formats: Format[]): AdminView => ({
    siteUrl: ctx.site.url,
    engine: ctx.engine,
    include: parseInclude(query.include, ADMIN_INCLUDES[type], ADMIN_DEFAULT_INCLUDES[type]),
    formats: new Set<Format>(['lexical', ...formats]),
  });
  const where = (ctx: Ctx, filter: unknown): PostWhere | null =>
    typeof filter === 'string' && filter !== '' ? filterWhere(POSTS_FILTER, ctx.engine, filter, { wrap: true }) : null;
  const writeOptions = (query: Query): WriteOptions => ({
    source: parseSource(query.source),
    forceRerender: flag(query.force_rerender),
    saveRevision: flag(query.save_revision),
    convertToLexical: flag(query.convert_to_lexical),
    // Pages have no e-mail options: Ghost drops them from a page's edit.
    ...(type === 'post' && typeof query.newsletter === 'string' ? { newsletter: query.newsletter } : {}),
    ...(type === 'post' && typeof query.email_segment === 'string' ? { emailSegment: query.email_segment } : {}),
  });
  const respond = async (ctx: Ctx, { id, saved }: WriteResult, query: Query) => {
    const row = await findSavedPost(ctx.db, id, { type }, saved);
    return { [docName]: await adminPosts(ctx.db, [row!], view(ctx, query, writeFormats(query.formats))) };
  };
  // The answer to a save holds the whole post: a large one is streamed without copies of its long texts.
  const answer = (reply: FastifyReply, payload: unknown) => {
    const stream = longTextJson(payload);
    return stream ? reply.type('application/json; charset=utf-8').send(stream) : payload;
  };
  const cache = (reply: FastifyReply, value: string | null) => {
    if (value) reply.header('X-Cache-Invalidate', value);
  };

  browseRoute<PostRow>(app, {
    docName,
    api: 'admin',
    spec: POST_TYPES_BROWSE[type],
    permission: 'post.browse',
    params: { include: ADMIN_INCLUDES[type], formats: FORMATS },
    present: (ctx, rows, params, query) => adminPosts(ctx.db, rows, view(ctx, query, postFormats(params.formats))),
    streamAll: true,
  });
  readRoutes(app, {
    docName,
    keys: ['id', 'slug'],
    permission: 'post.read',
    include: ADMIN_INCLUDES[type],
    formats: FORMATS,
    notFound: type === 'post' ? 'Post not found.' : 'Page not found.',
    read: async (ctx, key, { query, formats }) => {
      const row = await findPost(ctx.db, key, { type });
      return row && (await adminPosts(ctx.db, [row], view(ctx, query, postFormats(formats))))[0];
    },
  });

  // Add, edit and destroy are not `writeRoutes` declarations: their `X-Cache-Invalidate` comes from the
  // service's result (a draft's preview paths, or the whole site), not from the route, and add and edit read
  // the saved post back with the request's formats and includes.
  app.post<{ Querystring: Query }>(`/${docName}/`, { config: { frame: frame('add'), permission: 'post.add' } }, async (request, reply) => {
    const options = writeOptions(request.query); // options are validated before the body, as in Ghost
    const result = await addPost(request.ctx, type, parseBody(request, POST_ADD[type]), options);
    reply.status(201).header('Location', locationOf(request, result.id));
    cache(reply, result.cacheInvalidate);
    return answer(reply, await respond(request.ctx, result, request.query));
  });

  app.put<{ Params: Params; Querystring: Query }>(`/${docName}/:id/`, { config: { frame: frame('edit'), permission: 'post.edit' } }, async (request, reply) => {
    assertIdParam(request.params.id);
    const options = writeOptions(request.query); // options are validated before the body, as in Ghost
    const result = await editPost(request.ctx, type, request.params.id, parseBody(request, POST_EDIT[type]), options);
    cache(reply, result.cacheInvalidate);
    return answer(reply, await respond(request.ctx, result, request.query));
  });

  app.delete<{ Params: Params }>(`/${docName}/:id/`, { config: { frame: frame('destroy'), permission: 'post.destroy' } }, async (request, reply) => {
    assertIdParam(request.params.id);
    await destroyPost(request.ctx, type, request.params.id);
    return reply.status(204).header('X-Cache-Invalidate', '/*').send();
  });

  // Copy is not one of the five controller verbs: its errors keep their own message.
  app.post<{ Params: Params; Querystring: Query }>(
    `/${docName}/:id/copy/`,
    { config: { frame: frame('copy'), permission: 'post.add' } },
    async (request, reply) => {
      assertIdParam(request.params.id);
      const result = await copyPost(request.ctx, type, request.params.id);
      const base = request.url.split('?')[0]!.replace(/[^/]+\/copy\/?$/, '');
      reply.status(201).header('Location', `${request.protocol}://${request.host}${base}${result.id}/`);
      return answer(reply, await respond(request.ctx, result, request.query));
    },
  );

  app.delete<{ Querystring: Query }>(
    `/${docName}/`,
    { config: { frame: frame('bulkDestroy'), permission: 'post.destroy', invalidatesSite: true } },
    async (request) => {
      checkBulkPermission(actorOf(request.ctx));
      const stats = await bulkDestroy(request.ctx, type, where(request.ctx, request.query.filter));
      return { bulk: { meta: { stats, errors: [] } } };
    },
  );

  app.put<{ Querystring: Query }>(
    `/${docName}/bulk/`,
    { config: { frame: frame('bulkEdit'), permission: 'post.edit', invalidatesSite: true } },
    async (request) => {
      const filter = where(request.ctx, request.query.filter);
      if (!filter) throw errors.validation('Validation (FieldIsRequired) failed for filter');
      checkBulkPermission(actorOf(request.ctx));
      const meta = await bulkEdit(request.ctx, type, parseBody(request, POST_BULK), filter);
      return { bulk: { meta } };
    },
  );
}
