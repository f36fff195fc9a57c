import type { Db } from '../../db/connect.js';
import type { UserRow } from '../../db/schema.js';
import type { Actor } from '../../http/actor.js';
import { errors } from '../../errors.js';
import { now } from '../../db/ids.js';
import { passwordMatches } from '../../auth/passwords.js';
import {
  beginSetup, findAuthenticator, otpauthUri, removeAuthenticator, replaceRecoveryCodes, unusedRecoveryCodes, useAppCode,
} from '../../auth/authenticator.js';
import type { SecretBox } from '../../auth/secret-box.js';
import { readSetting } from '../settings/settings.queries.js';

/** Only a person at a browser manages their authenticator: never an API token. */
export function sessionUser(actor: Actor): UserRow {
  if (actor.kind !== 'session') throw errors.noPermission('Staff tokens are not allowed to access this endpoint');
  return actor.user;
}

export async function authenticatorStatus(db: Db, user: UserRow) {
  const row = await findAuthenticator(db, user.id);
  return {
    enabled: row?.enabled === true,
    pending: row?.enabled === false,
    recovery_codes_remaining: row?.enabled ? await unusedRecoveryCodes(db, user.id) : 0,
  };
}

/** A new secret to scan; it counts only once a code from the app confirms it. */
export async function startSetup(db: Db, user: UserRow, siteUrl: string, secrets: SecretBox) {
  if ((await findAuthenticator(db, user.id))?.enabled) {
    throw errors.validation('An authenticator app is already enabled. Remove it before adding another.');
  }
  const secret = await beginSetup(db, user.id, secrets);
  const issuer = (await readSetting(db, 'title')) || new URL(siteUrl).hostname;
  return { enabled: false, secret, otpauth_url: otpauthUri(secret, user.email, issuer) };
}

/** The first code from the app enables it and returns the recovery codes (shown this once). */
export async function confirmSetup(db: Db, user: UserRow, token: unknown, secrets: SecretBox) {
  const row = await findAuthenticator(db, user.id);
  if (!row) throw errors.validation('Start the authenticator set-up first.');
  if (row.enabled) throw errors.validation('An authenticator app is already enabled. Remove it before adding another.');
  if (!(await useAppCode(db, row, token, secrets))) throw errors.validation({ message: 'The code is not valid.', property: 'token' });
  await db.updateTable('staff_authenticators').set({ enabled: true, updated_at: now() }).where('user_id', '=', user.id).execute();
  return { enabled: true, recovery_codes: await replaceRecoveryCodes(db, user.id) };
}

async function assertPassword(user: UserRow, password: unknown): Promise<void> {
  if (typeof password !== 'string' || !password) throw errors.validation('Password is required for this operation');
  if (!(await passwordMatches(password, user.password))) {
    throw errors.validation({
      message: 'Your password is incorrect.', context: 'Your password is incorrect.',
      help: 'Visit and save your profile after logging in to check for problems.', code: 'PASSWORD_INCORRECT',
    });
  }
}

export async function disable(db: Db, user: UserRow, password: unknown): Promise<void> {
  await assertPassword(user, password);
  await removeAuthenticator(db, user.id);
}

export async function newRecoveryCodes(db: Db, user: UserRow, password: unknown) {
  await assertPassword(user, password);
  if (!(await findAuthenticator(db, user.id))?.enabled) throw errors.validation('No authenticator app is enabled.');
  return { enabled: true, recovery_codes: await replaceRecoveryCodes(db, user.id) };
}
