import type { InviteRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';

/** An invitation; its token is never shown (only the invited person gets it, by e-mail). */
export function presentInvite(invite: InviteRow) {
  return {
    id: invite.id,
    role_id: invite.role_id,
    status: invite.status,
    email: invite.email,
    expires: invite.expires,
    created_at: isoDate(invite.created_at),
    updated_at: isoDate(invite.updated_at),
  };
}
