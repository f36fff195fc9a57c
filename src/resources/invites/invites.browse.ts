import type { BrowseSpec } from '../../browse/browse.js';
import { attributesOf } from '../../browse/order.js';
import type { InviteRow } from '../../db/schema.js';
import type { FieldType, FilterSpec } from '../../filter/spec.js';

/** Ghost's `invites` table; the token is stored as a hash here and is never filterable or readable. */
const INVITE_COLUMNS = {
  id: 'text', role_id: 'text', status: 'text', email: 'text', expires: 'number', created_at: 'date',
  created_by: 'text', updated_at: 'date', updated_by: 'text',
} as const satisfies Record<Exclude<keyof InviteRow, 'token_hash'>, FieldType>;

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
