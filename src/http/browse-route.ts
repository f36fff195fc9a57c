import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Permission } from '../auth/permissions.js';
import { browseAllPages, browseRows, type Api, type BrowseSpec } from '../browse/browse.js';
import { paginationMeta } from '../browse/pagination.js';
import { parseBrowseParams, type BrowseParamRules, type BrowseParams } from '../browse/params.js';
import { projectList } from '../browse/projection.js';
import type { Ctx } from '../ctx.js';

type Query = Record<string, unknown>;

/** Rows read, presented and written at a time when `limit=all` streams. */
export const STREAM_PAGE_ROWS = 100;

/**
 * A `limit=all` answer up to this many characters (a few hundred tags or authors) is sent whole, like any
 * other answer: with a Content-Length and an entity tag, and kept by the response cache. Past it the answer
 * streams, so memory holds a page whatever the number of rows.
 */
export const WHOLE_LIMIT_ALL_CHARS = 128 * 1024;

export interface BrowseRoute<Row> {
  /** The resource: path `/<docName>/`, envelope key and frame name (`posts`, `tags`, …). */
  docName: string;
  api: Api;
  spec: BrowseSpec;
  /** Permission row checked before the handler (Admin API); Content routes have none. */
  permission?: Permission;
  /** `include` and `formats` values the endpoint accepts. */
  params?: BrowseParamRules;
  /**
   * One page of rows as this API shows them (the resource's allow-list presenter); `fields` applies after.
   * It must present each row the same whatever else is on its page: `limit=all` presents page by page.
   */
  present: (ctx: Ctx, rows: Row[], params: BrowseParams, query: Query) => Promise<Record<string, unknown>[]> | Record<string, unknown>[];
  /** `limit=all` is streamed (streamAll), not read and serialised whole. */
  streamAll?: boolean;
}

/**
 * `GET /<docName>/` of a resource with a browse spec: options checked as Ghost checks them, one page of
 * rows (browseRows), presented, `fields` applied to the list (projectList); `meta.pagination` alongside.
 */
export function browseRoute<Row>(app: FastifyInstance, route: BrowseRoute<Row>): void {
  const config = { frame: { docName: route.docName, method: 'browse' }, ...(route.permission ? { permission: route.permission } : {}) };
  app.get<{ Querystring: Query }>(`/${route.docName}/`, { config }, async (request, reply) => {
    const params = parseBrowseParams(request.query, route.params);
    if (route.streamAll && params.page.limit === null) {
      reply.type('application/json; charset=utf-8');
      return streamAll(route, request.ctx, params, request.query);
    }
    const { rows, meta } = await browseRows<Row>(request.ctx.db, request.ctx.engine, route.spec, route.api, params);
    return { [route.docName]: projectList(await route.present(request.ctx, rows, params, request.query), params), meta };
  });
}

/**
 * `limit=all` as the very bytes `JSON.stringify` gives for the whole answer: sent whole when it is small
 * (WHOLE_LIMIT_ALL_CHARS), else streamed: rows are read
 * STREAM_PAGE_ROWS at a time, each page presented, serialised and handed to the response, and the next
 * page is read only once the response has taken it (the stream is pulled by the socket's drain), so memory
 * holds a page whatever the number of rows. The first page is read and presented before the answer starts:
 * a bad filter, order or query fails with Ghost's error, not in the middle of a 200. A failure after that
 * can only cut the answer short (logged, and the client sees a truncated body).
 */
async function streamAll<Row>(route: BrowseRoute<Row>, ctx: Ctx, params: BrowseParams, query: Query): Promise<Readable | Buffer> {
  const pages = (await browseAllPages<Row>(ctx.db, ctx.engine, route.spec, route.api, params, STREAM_PAGE_ROWS))[Symbol.asyncIterator]();
  const serialise = async (rows: Row[]) =>
    projectList(await route.present(ctx, rows, params, query), params)
      .map((object) => JSON.stringify(object))
      .join(',');
  const first = await pages.next();
  const firstRows = first.done ? [] : first.value;
  const firstJson = await serialise(firstRows);

  async function* body(): AsyncGenerator<string> {
    let rowCount = firstRows.length;
    yield `{${JSON.stringify(route.docName)}:[${firstJson}`;
    for (;;) {
      const next = await pages.next();
      if (next.done) break;
      if (next.value.length === 0) continue;
      rowCount += next.value.length;
      yield `${rowCount > next.value.length ? ',' : ''}${await serialise(next.value)}`;
    }
    yield `],"meta":${JSON.stringify(paginationMeta(params.page, rowCount))}}`;
  }
  // The first pages are held until the answer is known to be small (then sent whole) or not (then streamed).
  const parts = body();
  const held: string[] = [];
  let chars = 0;
  for (;;) {
    const next = await parts.next();
    if (next.done) return Buffer.from(held.join(''));
    held.push(next.value);
    chars += next.value.length;
    if (chars > WHOLE_LIMIT_ALL_CHARS) break;
  }
  async function* rest(): AsyncGenerator<string> {
    yield held.join('');
    held.length = 0;
    for (let next = await parts.next(); !next.done; next = await parts.next()) yield next.value;
  }
  return Readable.from(rest(), { objectMode: false });
}
