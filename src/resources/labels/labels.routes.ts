import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../ctx.js';
import type { LabelRow } from '../../db/schema.js';
import { parseInclude } from '../../browse/include.js';
import { browseRoute } from '../../http/browse-route.js';
import { readRoutes } from '../../http/read-routes.js';
import { assertIdParam } from '../../http/validate.js';
import { locationOf } from '../../http/location.js';
import { parseBody } from '../../http/parse-body.js';
import { LABELS_BROWSE } from './labels.browse.js';
import { findLabel, memberCountsOfLabels } from './labels.queries.js';
import { presentLabel } from './labels.present.js';
import { addLabel, deleteLabel, editLabel } from './labels.service.js';
import { LABEL_ADD, LABEL_EDIT, LABEL_INCLUDES } from './labels.schemas.js';

type Query = Record<string, unknown>;
type Params = { id: string };

const frame = (method: string) => ({ docName: 'labels', method });

async function presentLabels({ db }: Ctx, rows: LabelRow[], include: readonly string[]) {
  const counts = include.includes('count.members')
    ? await memberCountsOfLabels(
        db,
        rows.map((row) => row.id),
      )
    : null;
  return rows.map((row) => presentLabel(row, counts ? { members: counts.get(row.id) ?? 0 } : undefined));
}

/** Labels: Admin API only. Add and edit purge nothing (an edit that changed something does), delete purges. */
export function labelsAdminRoutes(app: FastifyInstance) {
  const include = (query: Query) => parseInclude(query.include, LABEL_INCLUDES);

  browseRoute<LabelRow>(app, {
    docName: 'labels',
    api: 'admin',
    spec: LABELS_BROWSE,
    permission: 'label.browse',
    params: { include: LABEL_INCLUDES },
    present: (ctx, rows, params) => presentLabels(ctx, rows, params.include),
  });
  readRoutes(app, {
    docName: 'labels',
    keys: ['id', 'slug'],
    permission: 'label.read',
    include: LABEL_INCLUDES,
    notFound: 'Label not found.',
    read: async (ctx, key, request) => {
      const row = await findLabel(ctx.db, key);
      return row && (await presentLabels(ctx, [row], request.include))[0];
    },
  });

  app.post<{ Querystring: Query }>('/labels/', { config: { frame: frame('add'), permission: 'label.add' } }, async (request, reply) => {
    const row = await addLabel(request.ctx, parseBody(request, LABEL_ADD));
    reply.status(201).header('Location', locationOf(request, row.id));
    return { labels: await presentLabels(request.ctx, [row], include(request.query)) };
  });

  app.put<{ Params: Params; Querystring: Query }>('/labels/:id/', { config: { frame: frame('edit'), permission: 'label.edit' } }, async (request) => {
    assertIdParam(request.params.id);
    const { label } = await editLabel(request.ctx, request.params.id, parseBody(request, LABEL_EDIT));
    return { labels: await presentLabels(request.ctx, [label], include(request.query)) };
  });

  app.delete<{ Params: Params }>(
    '/labels/:id/',
    { config: { frame: frame('destroy'), permission: 'label.destroy', invalidatesSite: true } },
    async (request, reply) => {
      assertIdParam(request.params.id);
      await deleteLabel(request.ctx, request.params.id);
      return reply.status(204).send();
    },
  );
}
