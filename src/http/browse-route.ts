import type { FastifyInstance } from 'fastify';
import type { Permission } from '../auth/permissions.js';
import { browseRows, type Api, type BrowseSpec } from '../browse/browse.js';
import { parseBrowseParams, type BrowseParamRules, type BrowseParams } from '../browse/params.js';
import { projectList } from '../browse/projection.js';
import type { Ctx } from '../ctx.js';

type Query = Record<string, unknown>;

export interface BrowseRoute<Row> {
  /** The resource: path `/<docName>/`, envelope key and frame name (`posts`, `tags`, …). */
  docName: string;
  api: Api;
  spec: BrowseSpec;
  /** Permission row checked before the handler (Admin API); Content routes have none. */
  permission?: Permission;
  /** `include` and `formats` values the endpoint accepts. */
  params?: BrowseParamRules;
  /** One page of rows as this API shows them (the resource's allow-list presenter); `fields` applies after. */
  present: (ctx: Ctx, rows: Row[], params: BrowseParams, query: Query) => Promise<Record<string, unknown>[]> | Record<string, unknown>[];
}

/**
 * `GET /<docName>/` of a resource with a browse spec: options checked as Ghost checks them, one page of
 * rows (browseRows), presented, `fields` applied to the list (projectList); `meta.pagination` alongside.
 */
export function browseRoute<Row>(app: FastifyInstance, route: BrowseRoute<Row>): void {
  const config = { frame: { docName: route.docName, method: 'browse' }, ...(route.permission ? { permission: route.permission } : {}) };
  app.get<{ Querystring: Query }>(`/${route.docName}/`, { config }, async (request) => {
    const params = parseBrowseParams(request.query, route.params);
    const { rows, meta } = await browseRows<Row>(request.ctx.db, request.ctx.engine, route.spec, route.api, params);
    return { [route.docName]: projectList(await route.present(request.ctx, rows, params, request.query), params), meta };
  });
}
