import type { UserRow } from '../../db/schema.js';
import type { Ctx } from '../../ctx.js';
import { actorOf, type Actor } from '../../auth/actor.js';
import { errors } from '../../errors.js';
import { assertOwnPassword } from '../../auth/passwords.js';
import {
  beginSetup,
  enableAuthenticator,
  findAuthenticator,
  otpauthUri,
  removeAuthenticator,
  replaceRecoveryCodes,
  unusedRecoveryCodes,
  useAppCode,
} from '../../auth/authenticator.js';
import { readSetting } from '../../settings/settings.js';

/** Only a person at a browser manages their authenticator: never an API token. */
export function sessionUser(actor: Actor): UserRow {
  if (actor.kind !== 'session') throw errors.noPermission('Staff tokens are not allowed to access this endpoint');
  return actor.user;
}

export async function authenticatorStatus(ctx: Ctx) {
  const { db } = ctx;
  const user = sessionUser(actorOf(ctx));
  const row = await findAuthenticator(db, user.id);
  return {
    enabled: row?.enabled === true,
    pending: row?.enabled === false,
    recovery_codes_remaining: row?.enabled ? await unusedRecoveryCodes(db, user.id) : 0,
  };
}

/** A new secret to scan; it counts only once a code from the app confirms it. */
export async function startSetup(ctx: Ctx) {
  const { db } = ctx;
  const user = sessionUser(actorOf(ctx));
  if ((await findAuthenticator(db, user.id))?.enabled) {
    throw errors.validation('An authenticator app is already enabled. Remove it before adding another.');
  }
  const secret = await ctx.write((w) => beginSetup(w.db, user.id, w.secrets, w.clock.now()));
  const issuer = (await readSetting(db, 'title')) || new URL(ctx.site.url).hostname;
  return { enabled: false, secret, otpauth_url: otpauthUri(secret, user.email, issuer) };
}

/** The first code from the app enables it and returns the recovery codes (shown this once). */
export async function confirmSetup(ctx: Ctx, token: unknown) {
  const { db } = ctx;
  const user = sessionUser(actorOf(ctx));
  const row = await findAuthenticator(db, user.id);
  if (!row) throw errors.validation('Start the authenticator set-up first.');
  if (row.enabled) throw errors.validation('An authenticator app is already enabled. Remove it before adding another.');
  if (!(await useAppCode(ctx.autocommitDb, row, token, ctx.secrets, ctx.clock.now())))
    throw errors.validation({ message: 'The code is not valid.', property: 'token' });
  const codes = await ctx.write(async (w) => {
    const at = w.clock.now();
    await enableAuthenticator(w.db, user.id, at);
    return replaceRecoveryCodes(w.db, user.id, at);
  });
  return { enabled: true, recovery_codes: codes };
}

export async function disable(ctx: Ctx, password: unknown): Promise<void> {
  const user = sessionUser(actorOf(ctx));
  await assertOwnPassword(password, user.password);
  await ctx.write((w) => removeAuthenticator(w.db, user.id));
}

export async function newRecoveryCodes(ctx: Ctx, password: unknown) {
  const user = sessionUser(actorOf(ctx));
  await assertOwnPassword(password, user.password);
  if (!(await findAuthenticator(ctx.db, user.id))?.enabled) throw errors.validation('No authenticator app is enabled.');
  return { enabled: true, recovery_codes: await ctx.write((w) => replaceRecoveryCodes(w.db, user.id, w.clock.now())) };
}
