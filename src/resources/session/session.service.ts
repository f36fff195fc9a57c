import type { Ctx } from '../../ctx.js';
import type { UserRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { assertPasswordMatches } from '../../auth/passwords.js';
import { findUserByEmail, markUserLoggedIn } from '../users/users.queries.js';
import type { Credentials } from './session.schemas.js';

/**
 * Ghost's `User.check`: the user by e-mail, refusing locked and suspended accounts and wrong passwords.
 * `firstLogin` tells whether the user had never logged in before (no device check then).
 */
export async function checkCredentials(ctx: Ctx, credentials: Credentials): Promise<{ user: UserRow; firstLogin: boolean }> {
  const { username, password } = credentials;
  if (typeof username !== 'string' || !username || typeof password !== 'string' || !password) throw errors.unauthorized('Access Denied.');
  const user = await findUserByEmail(ctx.db, username);
  if (!user) throw errors.notFound('There is no user with that email address.');
  if (user.status === 'locked') throw errors.passwordResetRequired();
  if (user.status === 'inactive') throw errors.noPermission('Your account was suspended.');
  await assertPasswordMatches(password, user.password);
  const at = ctx.clock.now();
  // A documented exception (see `Ctx.autocommitDb`): one idempotent UPDATE, which Ghost audits and announces not.
  await markUserLoggedIn(ctx.autocommitDb, user.id, at);
  return { user: { ...user, last_seen: at, status: 'active' }, firstLogin: user.last_seen === null };
}
