import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../ctx.js';
import type { PostRow } from '../../db/schema.js';
import { browseRoute } from '../../http/browse-route.js';
import { readRoutes } from '../../http/read-routes.js';
import { POST_TYPES_BROWSE } from './posts.browse.js';
import { CONTENT_INCLUDES, DOC_NAME, FORMATS, type Format, type PostType } from './posts.schemas.js';
import { postFormats } from './posts.options.js';
import { findPublishedPost } from './posts.content.queries.js';
import { contentPosts, type AdminView } from './posts.responses.js';

/** Content API: source formats are never returned (asking for them is not an error); html by default. */
function contentFormats(requested: readonly string[] | null): Set<Format> {
  if (requested === null) return new Set(['html']);
  return new Set(postFormats(requested).filter((format) => format === 'html' || format === 'plaintext'));
}

const view = (ctx: Ctx, include: readonly string[], formats: readonly string[] | null): AdminView => ({
  siteUrl: ctx.site.url,
  engine: ctx.engine,
  include,
  formats: contentFormats(formats),
  member: ctx.member ?? null,
});

/**
 * Content API posts and pages: published only (a client's `status` filter cannot widen that), newest
 * first for posts and by title for pages.
 */
export function postsContentRoutes(app: FastifyInstance, type: PostType) {
  const docName = DOC_NAME[type];
  browseRoute<PostRow>(app, {
    docName,
    api: 'content',
    spec: POST_TYPES_BROWSE[type],
    params: { include: CONTENT_INCLUDES, formats: FORMATS },
    present: (ctx, rows, params) => contentPosts(ctx.db, rows, view(ctx, params.include, params.formats)),
    streamAll: true,
  });
  readRoutes(app, {
    docName,
    keys: ['id', 'slug'],
    include: CONTENT_INCLUDES,
    formats: FORMATS,
    notFound: type === 'post' ? 'Post not found.' : 'Page not found.',
    read: async (ctx, key, { include, formats }) => {
      const row = await findPublishedPost(ctx.db, key, type, { wholePlaintext: contentFormats(formats).has('plaintext') });
      return row && (await contentPosts(ctx.db, [row], view(ctx, include, formats)))[0];
    },
  });
}
