import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../errors.js';
import { assertIdParam } from '../../http/validate.js';
import { parseBrowseParams } from '../../browse/params.js';
import { browseRows, pickEach } from '../../browse/browse.js';
import { POST_TYPES_BROWSE } from './posts.browse.js';
import type { PostRow } from '../../db/schema.js';
import { CONTENT_INCLUDES, DOC_NAME, FORMATS, type Format, type PostType } from './posts.schemas.js';
import { includesOf, parseFormats } from './posts.options.js';
import { assertSlugParam, pickRead } from '../../http/read-params.js';
import { findPost, type PostKey } from './posts.queries.js';
import { contentPosts } from './posts.responses.js';

type Query = Record<string, unknown>;
type Params = { id: string; slug: string };

/** Content API: source formats are never returned (asking for them is not an error); html by default. */
function contentFormats(raw: unknown): Set<Format> {
  const requested = parseFormats(raw, { validate: true });
  if (requested === null) return new Set(['html']);
  return new Set(requested.filter((format) => format === 'html' || format === 'plaintext'));
}

/**
 * Content API posts and pages: published only (a client's `status` filter cannot widen that), newest
 * first for posts and by title for pages.
 */
export function postsContentRoutes(app: FastifyInstance, type: PostType) {
  const docName = DOC_NAME[type];
  const frame = (method: string) => ({ docName, method });
  const view = (siteUrl: string, query: Query) => ({ siteUrl, include: includesOf(query.include, CONTENT_INCLUDES, []), formats: contentFormats(query.formats) });

  app.get<{ Querystring: Query }>(`/${docName}/`, { config: { frame: frame('browse') } }, async (request) => {
    const { db, engine, site } = request.ctx;
    const v = view(site.url, request.query);
    const params = parseBrowseParams(request.query, { include: CONTENT_INCLUDES, formats: FORMATS });
    const { rows, meta } = await browseRows<PostRow>(db, engine, POST_TYPES_BROWSE[type], 'content', params);
    return { [docName]: pickEach(await contentPosts(db, rows, v), params), meta };
  });

  const read = async (request: FastifyRequest<{ Querystring: Query }>, key: PostKey) => {
    const { db, site } = request.ctx;
    const v = view(site.url, request.query);
    const row = await findPost(db, key, { type, published: true });
    if (!row) throw errors.notFound(type === 'post' ? 'Post not found.' : 'Page not found.');
    return { [docName]: pickRead(await contentPosts(db, [row], v), request.query, 'slug' in key ? 'slug' : 'id', v.include, parseFormats(request.query.formats, { validate: true })) };
  };
  app.get<{ Params: Params; Querystring: Query }>(`/${docName}/:id/`, { config: { frame: frame('read') } }, async (request) => {
    assertIdParam(request.params.id);
    return read(request, { id: request.params.id });
  });
  app.get<{ Params: Params; Querystring: Query }>(`/${docName}/slug/:slug/`, { config: { frame: frame('read') } }, async (request) => {
    assertSlugParam(request.params.slug);
    return read(request, { slug: request.params.slug });
  });
}
