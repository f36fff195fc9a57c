import type { BrowseSpec } from '../browse.js';
import type { FilterSpec } from '../spec.js';
import { schema, attributesOf } from './columns.js';

/** Ghost's `invites` table; the token is stored as a hash here and is never filterable or readable. */
const INVITE_COLUMNS = schema(`
  id role_id status email expires:int created_at:date created_by updated_at:date updated_by`);

export const INVITES_FILTER: FilterSpec = { table: 'invites', fields: INVITE_COLUMNS };

/** Staff invitations (`core/server/models/invite.js`: no default order). */
export const INVITES_BROWSE: BrowseSpec = {
  table: 'invites',
  filter: INVITES_FILTER,
  order: { table: 'invites', attributes: attributesOf('invites', INVITE_COLUMNS) },
  columns: Object.keys(INVITE_COLUMNS),
  alwaysRead: ['id'],
  api: {
    // Statements naming the token are dropped, as Ghost drops private keys on public filters.
    admin: { filter: { reject: (key) => /^token/i.test(key) }, defaultOrder: () => [] },
  },
};
