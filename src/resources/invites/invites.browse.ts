import type { FieldMap } from '../../browse/fields.js';
import { browseSpecOf } from '../../browse/spec-of.js';
import type { InviteRow } from '../../db/schema.js';

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

/** Staff invitations (`core/server/models/invite.js`: no default order). */
export const INVITES_BROWSE = browseSpecOf('invites', INVITE_FIELDS, {
  api: {
    // Statements naming the token are dropped, as Ghost drops private keys on public filters.
    admin: { filter: { reject: (key) => /^token/i.test(key) }, defaultOrder: () => [] },
  },
});
