import type { BrowseSpec } from '../../browse/browse.js';
import { listColumns, queryFields } from '../../browse/fields.js';
import { attributesOf } from '../../browse/order.js';
import type { FilterSpec } from '../../filter/spec.js';
import { ACTION_FIELDS } from './actions.fields.js';

const ACTIONS_FILTER: FilterSpec = { table: 'actions', fields: queryFields(ACTION_FIELDS) };

/** The audit trail (`core/server/models/action.js`): newest first. */
export const ACTIONS_BROWSE: BrowseSpec = {
  table: 'actions',
  filter: ACTIONS_FILTER,
  order: { table: 'actions', attributes: attributesOf('actions', ACTIONS_FILTER.fields) },
  columns: listColumns(ACTION_FIELDS),
  alwaysRead: ['id', 'resource_id', 'resource_type', 'actor_id', 'actor_type'],
  api: { admin: { defaultOrder: () => [{ kind: 'column', table: 'actions', column: 'created_at', type: 'date', direction: 'desc' }] } },
};
