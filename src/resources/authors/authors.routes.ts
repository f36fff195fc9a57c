import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx } from '../../ctx.js';
import type { UserRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { assertIdParam } from '../../http/validate.js';
import { parseInclude } from '../../browse/pagination.js';
import { parseBrowseParams } from '../../browse/params.js';
import { browseRows, pickEach } from '../../browse/browse.js';
import { USERS_BROWSE } from '../users/users.browse.js';
import { authorUrl } from '../../content/urls.js';
import { assertSlugParam, pickRead } from '../../http/read-params.js';
import { findPublicAuthor, publishedPostCounts } from './authors.queries.js';
import { presentContentAuthor } from './authors.present.js';

type Query = Record<string, unknown>;
type Params = { id: string; slug: string };


/** Content API authors: staff with at least one published post or page, by name. */
export function authorsContentRoutes(app: FastifyInstance) {
  const frame = (method: string) => ({ docName: 'authors', method });
  const present = async ({ db, site }: Ctx, rows: UserRow[], query: Query) => {
    const counts = parseInclude(query.include, ['count.posts']).has('count.posts') ? await publishedPostCounts(db, rows.map((row) => row.id)) : null;
    // Every author listed here has a published post, so every url is routable.
    return rows.map((row) => presentContentAuthor(row, {
      url: authorUrl(site.url, row.slug, true),
      ...(counts ? { count: { posts: counts.get(row.id) ?? 0 } } : {}),
    }));
  };

  app.get<{ Querystring: Query }>('/authors/', { config: { frame: frame('browse') } }, async (request) => {
    const params = parseBrowseParams(request.query, { include: ['count.posts'] });
    const { rows, meta } = await browseRows<UserRow>(request.ctx.db, request.ctx.engine, USERS_BROWSE, 'content', params);
    return { authors: pickEach(await present(request.ctx, rows, request.query), params), meta };
  });

  const read = async (request: FastifyRequest<{ Querystring: Query }>, by: { id: string } | { slug: string }) => {
    const row = await findPublicAuthor(request.ctx.db, by);
    if (!row) throw errors.notFound('Author not found.');
    return { authors: pickRead(await present(request.ctx, [row], request.query), request.query, 'id' in by ? 'id' : 'slug', []) };
  };
  app.get<{ Params: Params; Querystring: Query }>('/authors/:id/', { config: { frame: frame('read') } }, async (request) => {
    assertIdParam(request.params.id);
    return read(request, { id: request.params.id });
  });
  app.get<{ Params: Params; Querystring: Query }>('/authors/slug/:slug/', { config: { frame: frame('read') } }, async (request) => {
    assertSlugParam(request.params.slug);
    return read(request, { slug: request.params.slug });
  });
}
