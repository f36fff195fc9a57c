import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { searchPublished } from '../../db/full-text.js';
import { parsePageRequest, paginationMeta } from '../../browse/pagination.js';
import { fromStorageUrl } from '../../content/ghost-url.js';
import { highlightAll, highlightExcerpt, searchWords } from '../../content/highlight.js';
import { excerptOf } from '../../content/text.js';
import { postUrl } from '../../content/urls.js';
import { readSettings } from '../../settings/settings.js';
import { zonedIso } from '../posts/posts.dates.js';
import { foundPosts } from './search.queries.js';

type Query = Record<string, unknown>;

/**
 * Quire's full-text search (beyond Ghost): published posts matching every word of `q` in their title,
 * excerpt or body, best first, each with its highlights. A post for members or paid tiers is found by its
 * title and excerpt only: its body is not in the index, and its `excerpt` is empty, as for any anonymous
 * Content API reader.
 */
async function search(ctx: Ctx, query: Query) {
  const q = typeof query.q === 'string' ? query.q : '';
  const words = searchWords(q);
  if (words.length === 0) throw errors.validation({ message: 'Validation (FieldIsRequired) failed for q', context: 'Search needs at least one word.' });
  // Searching as you type: an unfinished last word matches as a prefix.
  const prefixLast = !/\s$/.test(q);
  const page = parsePageRequest(query, { maxLimit: 100 });
  const limit = page.limit ?? 100;
  const { hits, total } = await searchPublished(
    ctx.db,
    ctx.engine.types.fullText,
    'post',
    { all: words, prefixLast },
    { limit, offset: (page.page - 1) * limit },
  );
  const [rows, settings] = await Promise.all([
    foundPosts(
      ctx.db,
      hits.map((hit) => hit.id),
    ),
    readSettings(ctx.db, ['timezone']),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const timezone = settings.get('timezone') || 'Etc/UTC';
  const posts = hits.flatMap((hit) => {
    const row = byId.get(hit.id);
    if (!row) return [];
    const open = row.visibility === 'public';
    const plaintext = open ? fromStorageUrl(row.plaintext, ctx.site.url) : null;
    return [
      {
        id: row.id,
        uuid: row.uuid,
        title: row.title,
        slug: row.slug,
        url: postUrl(ctx.site.url, row),
        excerpt: open ? excerptOf({ custom_excerpt: row.custom_excerpt, plaintext }) : '',
        published_at: zonedIso(row.published_at, timezone),
        visibility: row.visibility,
        search: {
          rank: hit.rank,
          title: highlightAll(row.title, words, prefixLast),
          excerpt: highlightExcerpt(plaintext, words, prefixLast) ?? highlightExcerpt(row.custom_excerpt, words, prefixLast),
        },
      },
    ];
  });
  return { posts, meta: paginationMeta({ page: page.page, limit: page.limit }, total) };
}

export function searchContentRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Query }>('/search/', { config: { frame: { docName: 'search', method: 'browse' } } }, (request) => search(request.ctx, request.query));
}
