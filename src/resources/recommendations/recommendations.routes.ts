import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import type { Ctx } from '../../ctx.js';
import type { RecommendationRow } from '../../db/schema.js';
import { browseRows, type Api } from '../../browse/browse.js';
import { parseBrowseParams } from '../../browse/params.js';
import { parsePageRequest } from '../../browse/pagination.js';
import { assertIdParam } from '../../http/validate.js';
import { parseBody } from '../../http/parse-body.js';
import { writeRoutes } from '../../http/write-routes.js';
import { RECOMMENDATIONS_BROWSE } from './recommendations.browse.js';
import { findRecommendation } from './recommendations.queries.js';
import { presentRecommendation } from './recommendations.present.js';
import { RECOMMENDATION_ADD, RECOMMENDATION_CHECK, RECOMMENDATION_EDIT } from './recommendations.schemas.js';
import { addRecommendation, checkRecommendation, deleteRecommendation, editRecommendation } from './recommendations.service.js';
import { errors } from '../../errors.js';

type Query = Record<string, unknown>;
type Params = { id: string };

const COUNTS = ['count.clicks', 'count.subscribers'];
const frame = framesOf('recommendations');

/** Ghost's recommendations paging: 5 a page by default, and `pages: 0` for an empty list. */
async function browseRecommendations(ctx: Ctx, query: Query, api: Api) {
  const params = { ...parseBrowseParams(query, { include: COUNTS }), page: parsePageRequest(query, { defaultLimit: 5 }) };
  const { rows, meta } = await browseRows<RecommendationRow>(ctx.db, ctx.engine, RECOMMENDATIONS_BROWSE, api, params);
  const { total } = meta.pagination;
  const { page, limit } = params.page;
  const pages = limit === null ? (total ? 1 : 0) : Math.ceil(total / limit);
  return {
    recommendations: rows.map((row) => presentRecommendation(row, api === 'admin' && params.include.length > 0)),
    meta: { pagination: { page, limit: limit ?? 'all', total, pages, prev: page > 1 ? page - 1 : null, next: page < pages ? page + 1 : null } },
  };
}

export function recommendationsAdminRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Query }>('/recommendations/', { config: { frame: frame('browse'), permission: 'recommendation.browse' } }, (request) =>
    browseRecommendations(request.ctx, request.query, 'admin'),
  );

  app.get<{ Params: Params }>('/recommendations/:id/', { config: { frame: frame('read'), permission: 'recommendation.read' } }, async (request) => {
    assertIdParam(request.params.id);
    const row = await findRecommendation(request.ctx.db, request.params.id);
    if (!row) throw errors.notFound({ message: `Recommendation with id ${request.params.id} not found` });
    return { recommendations: [presentRecommendation(row)] };
  });

  writeRoutes(app, {
    docName: 'recommendations',
    add: {
      body: RECOMMENDATION_ADD,
      permission: 'recommendation.add',
      invalidatesSite: true,
      run: addRecommendation,
      present: (_ctx, row) => [presentRecommendation(row)],
    },
    edit: {
      body: RECOMMENDATION_EDIT,
      permission: 'recommendation.edit',
      invalidatesSite: true,
      run: editRecommendation,
      present: (_ctx, row) => [presentRecommendation(row)],
    },
    destroy: { permission: 'recommendation.destroy', invalidatesSite: true, run: deleteRecommendation },
  });

  // `check` is not one of the write verbs: it answers a lookup, and its errors keep their own message.
  app.post('/recommendations/check/', { config: { frame: frame('check'), permission: 'recommendation.add', invalidatesSite: true } }, async (request) => {
    const { existing, url } = await checkRecommendation(request.ctx, parseBody(request, RECOMMENDATION_CHECK));
    return { recommendations: [presentRecommendation(existing ?? { url, one_click_subscribe: false })] };
  });

  // Incoming recommendations come from other sites' webmentions, which Quire does not receive yet.
  app.get<{ Querystring: Query }>(
    '/incoming_recommendations/',
    { config: { frame: { docName: 'incoming_recommendations', method: 'browse' }, permission: 'recommendation.browse' } },
    (request) => {
      const { page, limit } = parsePageRequest(request.query, { defaultLimit: 5 });
      return { recommendations: [], meta: { pagination: { page, limit: limit ?? 'all', pages: 1, total: 0, next: null, prev: null } } };
    },
  );
}

export function recommendationsContentRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Query }>('/recommendations/', { config: { frame: frame('browse') } }, (request) =>
    browseRecommendations(request.ctx, request.query, 'content'),
  );
}
