import type { FastifyInstance } from 'fastify';
import type { Permission } from '../auth/permissions.js';
import type { Ctx } from '../ctx.js';
import { framesOf } from './frame.js';
import { locationOf } from './location.js';
import { parseBody, type BodySpec } from './parse-body.js';
import { assertIdParam } from './validate.js';

type Query = Record<string, unknown>;

/** What every write declaration names: its permission row and whether it purges the site's cache. */
interface WriteCommon<O> {
  permission: Permission;
  /** Ghost's controller `cacheInvalidate: true` (see `FastifyContextConfig.invalidatesSite`). */
  invalidatesSite?: boolean;
  /** Query options, checked before the id and the body as Ghost's frame does (`formats`, `include`, …). */
  options?: (query: Query) => O;
}

/** `POST /<docName>/`: 201 with `Location`, the new record presented. */
export interface AddRoute<I, R, O> extends WriteCommon<O> {
  body: BodySpec<I>;
  /** Where Ghost's answer differs: offers answer 200, webhooks send no `Location`. */
  status?: 200 | 201;
  location?: false;
  run: (ctx: Ctx, input: I, options: O) => Promise<R>;
  /** The new record's id, for `Location` (default: the result's own `id`). */
  id?: (result: R) => string;
  present: (ctx: Ctx, result: R, options: O) => Promise<unknown[]> | unknown[];
  /** Ghost's `meta` next to the envelope, when the answer has one (`opted_in_member_count`, …). */
  meta?: (result: R) => Record<string, unknown> | undefined;
}

/**
 * `PUT /<docName>/:id/`: the record as the edit left it. Ghost's `updated_at` collision check, where a
 * resource has it, is the service's (it needs the row it locked).
 */
export interface EditRoute<I, R, O> extends WriteCommon<O> {
  body: BodySpec<I>;
  run: (ctx: Ctx, id: string, input: I, options: O) => Promise<R>;
  present: (ctx: Ctx, result: R, options: O) => Promise<unknown[]> | unknown[];
  meta?: (result: R) => Record<string, unknown> | undefined;
}

/** `DELETE /<docName>/:id/`: 204 and no body. */
export interface DestroyRoute extends Omit<WriteCommon<never>, 'options'> {
  run: (ctx: Ctx, id: string) => Promise<unknown>;
}

export interface WriteRoutes<AI, AR, AO, EI, ER, EO> {
  /** The resource: paths `/<docName>/` and `/<docName>/:id/`, envelope key and frame name. */
  docName: string;
  add?: AddRoute<AI, AR, AO>;
  edit?: EditRoute<EI, ER, EO>;
  destroy?: DestroyRoute;
}

const configOf = (frame: ReturnType<typeof framesOf>, method: string, route: WriteCommon<unknown>) => ({
  frame: frame(method),
  permission: route.permission,
  ...(route.invalidatesSite ? { invalidatesSite: true } : {}),
});

const envelope = (docName: string, records: unknown[], meta: Record<string, unknown> | undefined) => ({ [docName]: records, ...(meta ? { meta } : {}) });

/**
 * The write routes of a resource as declarations, like `browseRoute` and `readRoutes`: each names its body
 * spec, permission, service call and presenter; the handler is the same three hops everywhere (options,
 * id and body checked in Ghost's order, one service call, the answer presented in the resource's envelope).
 */
export function writeRoutes<AI, AR, AO, EI, ER, EO>(app: FastifyInstance, routes: WriteRoutes<AI, AR, AO, EI, ER, EO>): void {
  const { docName, add, edit, destroy } = routes;
  const frame = framesOf(docName);
  if (add) {
    app.post<{ Querystring: Query }>(`/${docName}/`, { config: configOf(frame, 'add', add) }, async (request, reply) => {
      const options = add.options ? add.options(request.query) : (undefined as AO);
      const result = await add.run(request.ctx, parseBody(request, add.body), options);
      reply.status(add.status ?? 201);
      if (add.location !== false) reply.header('Location', locationOf(request, add.id ? add.id(result) : (result as { id: string }).id));
      return envelope(docName, await add.present(request.ctx, result, options), add.meta?.(result));
    });
  }
  if (edit) {
    app.put<{ Params: { id: string }; Querystring: Query }>(`/${docName}/:id/`, { config: configOf(frame, 'edit', edit) }, async (request) => {
      const options = edit.options ? edit.options(request.query) : (undefined as EO);
      assertIdParam(request.params.id);
      const result = await edit.run(request.ctx, request.params.id, parseBody(request, edit.body), options);
      return envelope(docName, await edit.present(request.ctx, result, options), edit.meta?.(result));
    });
  }
  if (destroy) {
    app.delete<{ Params: { id: string } }>(`/${docName}/:id/`, { config: configOf(frame, 'destroy', destroy) }, async (request, reply) => {
      assertIdParam(request.params.id);
      await destroy.run(request.ctx, request.params.id);
      return reply.status(204).send();
    });
  }
}
