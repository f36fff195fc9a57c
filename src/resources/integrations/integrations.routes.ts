import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import type { Ctx } from '../../ctx.js';
import type { IntegrationRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { assertIdParam } from '../../http/validate.js';
import { parseBody } from '../../http/parse-body.js';
import { writeRoutes } from '../../http/write-routes.js';
import { INTEGRATION_ADD, INTEGRATION_EDIT, INTEGRATION_REFRESH } from './integrations.schemas.js';
import { parseInclude } from '../../browse/include.js';
import { paginationMeta, parsePageRequest, sqlWindow } from '../../browse/pagination.js';
import { apiKeysOf, countListedIntegrations, findListedIntegration, listIntegrations } from './integrations.queries.js';
import { presentIntegration } from './integrations.present.js';
import { webhooksOf } from '../webhooks/webhooks.queries.js';
import { addIntegration, deleteIntegration, editIntegration, refreshApiKey } from './integrations.service.js';

type Params = { id: string; keyid: string };
type Query = Record<string, unknown>;

const frame = framesOf('integrations');

export function integrationsRoutes(app: FastifyInstance) {
  async function present(ctx: Ctx, rows: IntegrationRow[], include: readonly string[]) {
    const ids = rows.map((row) => row.id);
    const [keys, hooks] = await Promise.all([
      include.includes('api_keys') ? apiKeysOf(ctx.db, ids) : null,
      include.includes('webhooks') ? webhooksOf(ctx.db, ids) : null,
    ]);
    return rows.map((row) => presentIntegration(row, keys?.get(row.id), hooks?.get(row.id)));
  }
  const includes = (query: Query) => parseInclude(query.include, ['api_keys', 'webhooks']);
  // Writes return the keys whatever `include` says (they were just made or changed), and webhooks when asked.
  const writeIncludes = (query: Query) => ['api_keys', ...includes(query)];

  app.get<{ Querystring: Query }>('/integrations/', { config: { frame: frame('browse'), permission: 'integration.browse' } }, async (request) => {
    const pageRequest = parsePageRequest(request.query);
    const { db } = request.ctx;
    const [rows, total] = await Promise.all([listIntegrations(db, sqlWindow(pageRequest)), countListedIntegrations(db)]);
    return { integrations: await present(request.ctx, rows, includes(request.query)), meta: paginationMeta(pageRequest, total) };
  });

  app.get<{ Params: Params; Querystring: Query }>(
    '/integrations/:id/',
    { config: { frame: frame('read'), permission: 'integration.read' } },
    async (request) => {
      assertIdParam(request.params.id);
      const row = await findListedIntegration(request.ctx.db, request.params.id);
      if (!row) throw errors.notFound();
      return { integrations: await present(request.ctx, [row], includes(request.query)) };
    },
  );

  writeRoutes(app, {
    docName: 'integrations',
    add: {
      body: INTEGRATION_ADD,
      permission: 'integration.add',
      options: writeIncludes,
      run: addIntegration,
      present: (ctx, row, included) => present(ctx, [row], included),
    },
    edit: {
      body: INTEGRATION_EDIT,
      permission: 'integration.edit',
      options: writeIncludes,
      run: editIntegration,
      present: (ctx, row, included) => present(ctx, [row], included),
    },
    destroy: { permission: 'integration.destroy', run: deleteIntegration },
  });

  // Not a declaration: a key's refresh is an edit of the integration at a path of its own.
  app.post<{ Params: Params; Querystring: Query }>(
    '/integrations/:id/api_key/:keyid/refresh/',
    { config: { frame: frame('edit'), permission: 'integration.edit' } },
    async (request) => {
      assertIdParam(request.params.id);
      parseBody(request, INTEGRATION_REFRESH);
      const row = await refreshApiKey(request.ctx, request.params.id, request.params.keyid);
      return { integrations: await present(request.ctx, [row], writeIncludes(request.query)) };
    },
  );
}
