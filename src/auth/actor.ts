import type { ApiKeyRow, SessionRow, UserRow } from '../db/schema.js';
import { OWNER_USER_ID, type RoleName } from './roles.js';

/**
 * Who is calling the Admin API. `session` and `staff` carry a user and the user's role; `integration`
 * carries an API key and its role (Admin Integration).
 */
export type Actor =
  | { kind: 'session'; user: UserRow; role: RoleName; session: SessionRow; apiKey: null }
  | { kind: 'staff'; user: UserRow; role: RoleName; session: null; apiKey: ApiKeyRow }
  | { kind: 'integration'; user: null; role: RoleName; session: null; apiKey: ApiKeyRow };

/**
 * The user a write is recorded against (`created_by`, `updated_by`): the caller, or for an integration the
 * owner's id `"1"`, as Ghost records it.
 */
export function actingUserId(actor: Actor): string {
  return actor.user?.id ?? OWNER_USER_ID;
}
