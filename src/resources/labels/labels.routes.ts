import type { FastifyInstance } from 'fastify';
import { parseInclude } from '../../browse/include.js';
import { viewRoutes } from '../../http/view-routes.js';
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

  viewRoutes(app, {
    docName: 'labels',
    spec: LABELS_BROWSE,
    object: 'label',
    include: LABEL_INCLUDES,
    keys: ['id', 'slug'],
    notFound: 'Label not found.',
    find: (ctx, key) => findLabel(ctx.db, key),
    view: presentLabels,
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
