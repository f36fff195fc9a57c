import type { BrowseSpec } from '../../browse/browse.js';
import { listColumns, queryFields, type FieldMap } from '../../browse/fields.js';
import { attributesOf } from '../../browse/order.js';
import type { InviteRow } from '../../db/schema.js';
import type { FilterSpec } from '../../filter/spec.js';

/** Ghost's `invites` table; the token is stored as a hash here and is never filterable or listed. */
const INVITE_FIELDS = {
  id: 'text',
  role_id: 'text',
  status: 'text',
  token_hash: { type: 'text', query: false, list: false },
  email: 'text',
  expires: 'number',
  created_at: 'date',
  created_by: 'text',
  updated_at: 'date',
  updated_by: 'text',
} as const satisfies FieldMap<InviteRow>;

export const INVITES_FILTER: FilterSpec = { table: 'invites', fields: queryFields(INVITE_FIELDS) };

/** Staff invitations (`core/server/models/invite.js`: no default order). */
export const INVITES_BROWSE: BrowseSpec = {
  table: 'invites',
  filter: INVITES_FILTER,
  order: { table: 'invites', attributes: attributesOf('invites', INVITES_FILTER.fields) },
  columns: listColumns(INVITE_FIELDS),
  alwaysRead: ['id'],
  api: {
    // Statements naming the token are dropped, as Ghost drops private keys on public filters.
    admin: { filter: { reject: (key) => /^token/i.test(key) }, defaultOrder: () => [] },
  },
};
