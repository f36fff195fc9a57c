import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import type { TagRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { assertIdParam } from '../../http/validate.js';
import { locationOf } from '../../http/location.js';
import { parseInclude } from '../../browse/pagination.js';
import { parseBrowseParams } from '../../browse/params.js';
import { browseRows, pickEach } from '../../browse/browse.js';
import { TAGS_BROWSE } from './tags.browse.js';
import { tagUrl } from '../../content/urls.js';
import { assertSlugParam, pickRead } from '../../http/read-params.js';
import { findPublicTag, findTag, postCountsOfTags, tagsWithPublishedPosts } from './tags.queries.js';
import { presentAdminTag, presentContentTag } from './tags.present.js';
import { addTag, deleteTag, editTag } from './tags.service.js';
import { TAG_ADD, TAG_EDIT, TAG_INCLUDES } from './tags.schemas.js';
import { parseBody } from '../../http/parse-body.js';

type Query = Record<string, unknown>;
type Params = { id: string; slug: string };

const frame = (method: string) => ({ docName: 'tags', method });
/** `fields` on a tag read; with `count.posts` Ghost reads every column and ignores them. */
const pickTag = (tags: Record<string, unknown>[], query: Query, by: { id: string } | { slug: string }) =>
  parseInclude(query.include, TAG_INCLUDES).size > 0 ? tags : pickRead(tags, query, 'id' in by ? 'id' : 'slug', []);

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

export function tagsAdminRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Query }>('/tags/', { config: { frame: frame('browse'), permission: 'tag.browse' } }, async (request) => {
    const { db, engine, site: { url: siteUrl } } = request.ctx;
    const params = parseBrowseParams(request.query, { include: TAG_INCLUDES });
    const { rows, meta } = await browseRows<TagRow>(db, engine, TAGS_BROWSE, 'admin', params);
    return { tags: pickEach(await presentTags(db, siteUrl, rows, request.query, 'admin'), params), meta };
  });

  const read = async (request: FastifyRequest<{ Params: Params; Querystring: Query }>, by: { id: string } | { slug: string }) => {
    const { db, site: { url: siteUrl } } = request.ctx;
    const row = await findTag(db, by);
    if (!row) throw errors.notFound('Tag not found.');
    return { tags: pickTag(await presentTags(db, siteUrl, [row], request.query, 'admin'), request.query, by) };
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
    const row = await addTag(request.ctx, parseBody(request, TAG_ADD));
    reply.status(201).header('Location', locationOf(request, row.id)).header('X-Cache-Invalidate', '/*');
    return { tags: await presentTags(request.ctx.db, request.ctx.site.url, [row], request.query, 'admin') };
  });

  app.put<{ Params: Params; Querystring: Query }>('/tags/:id/', { config: { frame: frame('edit'), permission: 'tag.edit' } }, async (request, reply) => {
    assertIdParam(request.params.id);
    const { tag, changed } = await editTag(request.ctx, request.params.id, parseBody(request, TAG_EDIT));
    if (changed) reply.header('X-Cache-Invalidate', '/*');
    return { tags: await presentTags(request.ctx.db, request.ctx.site.url, [tag], request.query, 'admin') };
  });

  app.delete<{ Params: Params }>('/tags/:id/', { config: { frame: frame('destroy'), permission: 'tag.destroy' } }, async (request, reply) => {
    assertIdParam(request.params.id);
    await deleteTag(request.ctx, request.params.id);
    return reply.status(204).header('X-Cache-Invalidate', '/*').send();
  });
}

export function tagsContentRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Query }>('/tags/', { config: { frame: frame('browse') } }, async (request) => {
    const { db, engine, site: { url: siteUrl } } = request.ctx;
    const params = parseBrowseParams(request.query, { include: TAG_INCLUDES });
    const { rows, meta } = await browseRows<TagRow>(db, engine, TAGS_BROWSE, 'content', params);
    return { tags: pickEach(await presentTags(db, siteUrl, rows, request.query, 'content'), params), meta };
  });

  const read = async (request: FastifyRequest<{ Params: Params; Querystring: Query }>, by: { id: string } | { slug: string }) => {
    const { db, site: { url: siteUrl } } = request.ctx;
    const row = await findPublicTag(db, by);
    if (!row) throw errors.notFound('Tag not found.');
    return { tags: pickTag(await presentTags(db, siteUrl, [row], request.query, 'content'), request.query, by) };
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
