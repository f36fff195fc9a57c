import { browseSpecOf, columnOrder } from '../../browse/spec-of.js';
import { ACTION_FIELDS } from './actions.fields.js';

const column = columnOrder('actions', ACTION_FIELDS);

/** The audit trail (`core/server/models/action.js`): newest first. */
export const ACTIONS_BROWSE = browseSpecOf('actions', ACTION_FIELDS, {
  alwaysRead: ['id', 'resource_id', 'resource_type', 'actor_id', 'actor_type'],
  api: { admin: { defaultOrder: () => [column('created_at', 'desc')] } },
});
