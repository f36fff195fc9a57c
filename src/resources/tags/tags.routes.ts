import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import type { TagRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { actorOf } from '../../http/actor.js';
import { assertIdParam } from '../../http/validate.js';
import { locationOf } from '../../http/location.js';
import { paginationMeta, parseInclude, parsePageRequest, sqlWindow } from '../../http/pagination.js';
import { OWNER_USER_ID } from '../../auth/roles.js';
import { tagUrl } from '../posts/posts.render.js';
import { assertSlugParam } from '../posts/posts.options.js';
import { countTags, findTag, listTags, postCountsOfTags, tagsWithPublishedPosts } from './tags.queries.js';
import { presentAdminTag, presentContentTag } from './tags.present.js';
import { addTag, deleteTag, editTag } from './tags.service.js';
import { TAG_INCLUDES } from './tags.schemas.js';
import type { Engine } from '../../db/engine.js';
import { filterWhere } from '../../filter/filter.js';
import { TAG_COLUMNS } from '../../filter/resources/columns.js';
import type { FilterSpec } from '../../filter/spec.js';

type Query = Record<string, unknown>;
type Params = { id: string; slug: string };
interface Deps {
  db: Db;
  siteUrl: string;
  engine: Engine;
}

const TAGS_FILTER: FilterSpec = { table: 'tags', fields: TAG_COLUMNS };
const whereOf = (engine: Engine, filter: unknown) =>
  typeof filter === 'string' && filter !== '' ? filterWhere(TAGS_FILTER, engine, filter) ?? undefined : undefined;

const frame = (method: string) => ({ docName: 'tags', method });
const actorId = (request: FastifyRequest) => actorOf(request).user?.id ?? OWNER_USER_ID;

/** Presents tags with their `url` (and `count.posts` when asked), in as few queries as the page needs. */
async function presentTags(db: Db, siteUrl: string, rows: TagRow[], query: Query, audience: 'admin' | 'content') {
  const ids = rows.map((row) => row.id);
  const withCount = parseInclude(query.include, TAG_INCLUDES).has('count.posts');
  const [published, counts] = await Promise.all([
    // Content API tags all have published posts: that is how they were selected.
    audience === 'content' ? Promise.resolve(new Set(ids)) : tagsWithPublishedPosts(db, ids),
    withCount ? postCountsOfTags(db, ids, audience === 'content') : Promise.resolve(null),
  ]);
  const present = audience === 'admin' ? presentAdminTag : presentContentTag;
  return rows.map((row) => present(row, siteUrl, {
    url: tagUrl(siteUrl, row.slug, row.visibility === 'public' && published.has(row.id)),
    ...(counts ? { count: { posts: counts.get(row.id) ?? 0 } } : {}),
  }));
}

export function tagsAdminRoutes(app: FastifyInstance, { db, siteUrl, engine }: Deps) {
  app.get<{ Querystring: Query }>('/tags/', { config: { frame: frame('browse'), permission: 'tag.browse' } }, async (request) => {
    const pageRequest = parsePageRequest(request.query);
    const where = whereOf(engine, request.query.filter);
    const options = where ? { where } : {};
    const [rows, total] = await Promise.all([listTags(db, { ...options, window: sqlWindow(pageRequest) }), countTags(db, options)]);
    return { tags: await presentTags(db, siteUrl, rows, request.query, 'admin'), meta: paginationMeta(pageRequest, total) };
  });

  const read = async (request: FastifyRequest<{ Params: Params; Querystring: Query }>, by: { id: string } | { slug: string }) => {
    const row = await findTag(db, by);
    if (!row) throw errors.notFound('Tag not found.');
    return { tags: await presentTags(db, siteUrl, [row], request.query, 'admin') };
  };
  app.get<{ Params: Params; Querystring: Query }>('/tags/:id/', { config: { frame: frame('read'), permission: 'tag.read' } }, async (request) => {
    assertIdParam(request.params.id);
    return read(request, { id: request.params.id });
  });
  app.get<{ Params: Params; Querystring: Query }>('/tags/slug/:slug/', { config: { frame: frame('read'), permission: 'tag.read' } }, async (request) => {
    assertSlugParam(request.params.slug);
    return read(request, { slug: request.params.slug });
  });

  app.post<{ Querystring: Query }>('/tags/', { config: { frame: frame('add'), permission: 'tag.add' } }, async (request, reply) => {
    const row = await addTag({ db, siteUrl, actorId: actorId(request) }, request.body);
    reply.status(201).header('Location', locationOf(request, row.id)).header('X-Cache-Invalidate', '/*');
    return { tags: await presentTags(db, siteUrl, [row], request.query, 'admin') };
  });

  app.put<{ Params: Params; Querystring: Query }>('/tags/:id/', { config: { frame: frame('edit'), permission: 'tag.edit' } }, async (request, reply) => {
    assertIdParam(request.params.id);
    const { tag, changed } = await editTag({ db, siteUrl, actorId: actorId(request) }, request.params.id, request.body);
    if (changed) reply.header('X-Cache-Invalidate', '/*');
    return { tags: await presentTags(db, siteUrl, [tag], request.query, 'admin') };
  });

  app.delete<{ Params: Params }>('/tags/:id/', { config: { frame: frame('destroy'), permission: 'tag.destroy' } }, async (request, reply) => {
    assertIdParam(request.params.id);
    await deleteTag(db, request.params.id);
    return reply.status(204).header('X-Cache-Invalidate', '/*').send();
  });
}

export function tagsContentRoutes(app: FastifyInstance, { db, siteUrl, engine }: Deps) {
  app.get<{ Querystring: Query }>('/tags/', { config: { frame: frame('browse') } }, async (request) => {
    const pageRequest = parsePageRequest(request.query);
    const where = whereOf(engine, request.query.filter);
    const options = { publishedOnly: true, ...(where ? { where } : {}) };
    const [rows, total] = await Promise.all([
      listTags(db, { ...options, orderByName: engine.text, window: sqlWindow(pageRequest) }),
      countTags(db, options),
    ]);
    return { tags: await presentTags(db, siteUrl, rows, request.query, 'content'), meta: paginationMeta(pageRequest, total) };
  });

  const read = async (request: FastifyRequest<{ Params: Params; Querystring: Query }>, by: { id: string } | { slug: string }) => {
    const row = await findTag(db, by);
    const published = row ? await tagsWithPublishedPosts(db, [row.id]) : new Set<string>();
    if (!row || !published.has(row.id)) throw errors.notFound('Tag not found.');
    return { tags: await presentTags(db, siteUrl, [row], request.query, 'content') };
  };
  app.get<{ Params: Params; Querystring: Query }>('/tags/:id/', { config: { frame: frame('read') } }, async (request) => {
    assertIdParam(request.params.id);
    return read(request, { id: request.params.id });
  });
  app.get<{ Params: Params; Querystring: Query }>('/tags/slug/:slug/', { config: { frame: frame('read') } }, async (request) => {
    assertSlugParam(request.params.slug);
    return read(request, { slug: request.params.slug });
  });
}
