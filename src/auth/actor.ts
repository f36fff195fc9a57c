import type { ApiKeyRow, SessionRow, UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { RoleName } from './roles.js';

/**
 * Who is calling the Admin API. `session` and `staff` carry a user and the user's role; `integration`
 * carries an API key and its role (Admin Integration).
 */
export type Actor =
  | { kind: 'session'; user: UserRow; role: RoleName; session: SessionRow; apiKey: null }
  | { kind: 'staff'; user: UserRow; role: RoleName; session: null; apiKey: ApiKeyRow }
  | { kind: 'integration'; user: null; role: RoleName; session: null; apiKey: ApiKeyRow };

/** The authenticated caller of a ctx (every Admin API route that is not public has one). */
export function actorOf(ctx: { actor: Actor | null }): Actor {
  if (!ctx.actor) throw errors.noPermission({ message: 'Authorization failed' });
  return ctx.actor;
}
