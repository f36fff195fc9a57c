import type { BrowseSpec } from '../../browse/browse.js';
import { listColumns, queryFields } from '../../browse/fields.js';
import { attributesOf } from '../../browse/order.js';
import type { FilterSpec } from '../../filter/spec.js';
import { LABEL_FIELDS } from './labels.fields.js';
import { labelMemberCount } from './labels.queries.js';

export const LABELS_FILTER: FilterSpec = { table: 'labels', fields: queryFields(LABEL_FIELDS) };

/** Labels (`core/server/models/label.js`): Admin API only, `name ASC, created_at DESC` by default. */
export const LABELS_BROWSE: BrowseSpec = {
  table: 'labels',
  filter: LABELS_FILTER,
  order: { table: 'labels', attributes: attributesOf('labels', LABELS_FILTER.fields), counts: ['count.members'] },
  columns: listColumns(LABEL_FIELDS),
  alwaysRead: ['id'],
  counts: {
    'count.members': () => (eb) => labelMemberCount(eb),
  },
  api: {
    admin: {
      defaultOrder: () => [
        { kind: 'column', table: 'labels', column: 'name', type: 'text', direction: 'asc' },
        { kind: 'column', table: 'labels', column: 'created_at', type: 'date', direction: 'desc' },
      ],
    },
  },
};
