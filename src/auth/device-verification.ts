import type { Db } from '../db/connect.js';
import type { ReadDb } from '../db/read-db.js';
import type { SessionRow, UserRow } from '../db/schema.js';
import { readSettings } from '../settings/settings.js';
import { emailCode, emailCodeIsValid } from './otp.js';
import { findAuthenticator, useAppCode, useRecoveryCode } from './authenticator.js';
import type { SecretBox } from './secret-box.js';

/**
 * Device verification (Ghost's staff 2FA): a login from a browser that has not proved itself for this
 * user must enter a six-digit code. The code is Ghost's stateless TOTP e-mailed to the user; a user with
 * an authenticator app may instead give the app's code or a recovery code. Sending the code is the
 * session resource's (`session.sign-in-code.ts`): auth does not compose mail.
 */
export interface DeviceVerification {
  db: Db;
  /** Opens the stored authenticator-app keys. */
  secrets: SecretBox;
  /** `STAFF_DEVICE_VERIFICATION`: off, only users with an authenticator app are asked. */
  enabled: boolean;
}

export async function sessionSecret(db: ReadDb): Promise<string> {
  const secret = (await readSettings(db, ['admin_session_secret'])).get('admin_session_secret');
  if (!secret) throw new Error('setting admin_session_secret is missing');
  return secret;
}

/** Whether the site asks for a code on every login (`require_email_mfa`): changes the error code and logout. */
export async function codeAlwaysRequired(db: ReadDb): Promise<boolean> {
  return (await readSettings(db, ['require_email_mfa'])).get('require_email_mfa') === 'true';
}

/** The current e-mail code of a user (also returned by a completed password reset). */
export async function currentEmailCode(db: ReadDb, userId: string, at: Date): Promise<string> {
  return emailCode(await sessionSecret(db), userId, at.getTime());
}

/** Any second factor of the user: the e-mailed code, the app's code, or an unused recovery code. */
export async function acceptCode(db: Db, userId: string, code: unknown, secrets: SecretBox, at: Date): Promise<boolean> {
  if (emailCodeIsValid(await sessionSecret(db), userId, code, at.getTime())) return true;
  const app = await findAuthenticator(db, userId);
  if (!app?.enabled) return false;
  // Recovery codes first: they must still work when the app's key cannot be opened (a changed SECRETS_KEY).
  return (await useRecoveryCode(db, userId, code, at)) || (await useAppCode(db, app, code, secrets, at));
}

export interface LoginFacts {
  user: UserRow;
  /** The user had never logged in: Ghost lets the first login through without a code. */
  firstLogin: boolean;
  /** `token` sent with the credentials. */
  code: unknown;
  /** The session the browser already had, if its cookie was sent. */
  presented: SessionRow | undefined;
  /** When the login happens. */
  at: Date;
}

export async function loginIsVerified(v: DeviceVerification, facts: LoginFacts): Promise<boolean> {
  const { user, presented } = facts;
  if (presented?.verified && presented.verified_user_id === user.id) return true;
  const app = await findAuthenticator(v.db, user.id);
  const appEnabled = app?.enabled === true;
  if (facts.firstLogin && !appEnabled) return true;
  if (facts.code !== undefined && facts.code !== null && (await acceptCode(v.db, user.id, facts.code, v.secrets, facts.at))) return true;
  return !v.enabled && !appEnabled;
}
