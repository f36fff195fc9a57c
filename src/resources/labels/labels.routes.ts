import type { FastifyInstance } from 'fastify';
import type { LabelRow } from '../../db/schema.js';
import { parseInclude } from '../../browse/include.js';
import { browseRoute } from '../../http/browse-route.js';
import { readRoutes } from '../../http/read-routes.js';
import { writeRoutes } from '../../http/write-routes.js';
import { LABELS_BROWSE } from './labels.browse.js';
import { findLabel } from './labels.queries.js';
import { presentLabels } from './labels.views.js';
import { addLabel, deleteLabel, editLabel } from './labels.service.js';
import { LABEL_ADD, LABEL_EDIT, LABEL_INCLUDES } from './labels.schemas.js';

type Query = Record<string, unknown>;

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

  writeRoutes(app, {
    docName: 'labels',
    add: {
      body: LABEL_ADD,
      permission: 'label.add',
      options: include,
      run: addLabel,
      present: (ctx, row, included) => presentLabels(ctx, [row], included),
    },
    edit: {
      body: LABEL_EDIT,
      permission: 'label.edit',
      options: include,
      run: async (ctx, id, input) => (await editLabel(ctx, id, input)).label,
      present: (ctx, label, included) => presentLabels(ctx, [label], included),
    },
    destroy: { permission: 'label.destroy', invalidatesSite: true, run: deleteLabel },
  });
}
