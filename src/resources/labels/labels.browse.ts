import { browseSpecOf, columnOrder } from '../../browse/spec-of.js';
import { LABEL_FIELDS } from './labels.fields.js';
import { labelMemberCount } from './labels.queries.js';

const column = columnOrder('labels', LABEL_FIELDS);

/** Labels (`core/server/models/label.js`): Admin API only, `name ASC, created_at DESC` by default. */
export const LABELS_BROWSE = browseSpecOf('labels', LABEL_FIELDS, {
  counts: {
    'count.members': () => (eb) => labelMemberCount(eb),
  },
  api: {
    admin: { defaultOrder: () => [column('name', 'asc'), column('created_at', 'desc')] },
  },
});
