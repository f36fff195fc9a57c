import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/connect.js';
import type { StaffAuthenticatorRow } from '../db/schema.js';
import { now, objectId } from '../db/ids.js';
import { APP_CODE, base32Decode, base32Encode, matchTotp, newAppSecret } from './otp.js';

/**
 * Authenticator apps (beyond Ghost): a user may add a TOTP app as a second way to prove a new device,
 * with single-use recovery codes for a lost phone. The e-mailed code keeps working alongside.
 */
export const RECOVERY_CODE_COUNT = 10;

export function findAuthenticator(db: Db, userId: string): Promise<StaffAuthenticatorRow | undefined> {
  return db.selectFrom('staff_authenticators').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Starts (or restarts) a set-up: a new secret, not yet enabled. */
export async function beginSetup(db: Db, userId: string): Promise<string> {
  const secret = newAppSecret();
  const at = now();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('staff_authenticators').where('user_id', '=', userId).execute();
    await trx.insertInto('staff_authenticators').values({ user_id: userId, secret, enabled: false, last_used_step: null, created_at: at, updated_at: at }).execute();
  });
  return secret;
}

/**
 * Accepts a code from the app once: the step it matched is remembered, and a compare-and-set makes two
 * concurrent requests with the same code succeed at most once.
 */
export async function useAppCode(db: Db, row: StaffAuthenticatorRow, code: unknown): Promise<boolean> {
  const step = matchTotp(base32Decode(row.secret), code, APP_CODE);
  if (step === null || (row.last_used_step !== null && step <= row.last_used_step)) return false;
  let update = db.updateTable('staff_authenticators').set({ last_used_step: step, updated_at: now() }).where('user_id', '=', row.user_id);
  update = row.last_used_step === null ? update.where('last_used_step', 'is', null) : update.where('last_used_step', '=', row.last_used_step);
  const { numUpdatedRows } = await update.executeTakeFirst();
  return numUpdatedRows > 0n;
}

const normaliseRecovery = (value: string) => value.toLowerCase().replace(/[\s-]/g, '');
const hashRecovery = (value: string) => createHash('sha256').update(normaliseRecovery(value)).digest('hex');

/** New recovery codes (`xxxxx-xxxxx`, 50 random bits each), replacing any earlier ones; shown once. */
export async function replaceRecoveryCodes(db: Db, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
  const at = now();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('staff_recovery_codes').where('user_id', '=', userId).execute();
    await trx.insertInto('staff_recovery_codes')
      .values(codes.map((code) => ({ id: objectId(), user_id: userId, code_hash: hashRecovery(code), used_at: null, created_at: at })))
      .execute();
  });
  return codes;
}

/** Spends one unused recovery code of the user; every stored hash is compared in constant time. */
export async function useRecoveryCode(db: Db, userId: string, code: unknown): Promise<boolean> {
  if (typeof code !== 'string' || normaliseRecovery(code).length !== 10) return false;
  const given = Buffer.from(hashRecovery(code));
  const rows = await db.selectFrom('staff_recovery_codes').select(['id', 'code_hash']).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  let match: string | null = null;
  for (const row of rows) if (timingSafeEqual(Buffer.from(row.code_hash), given) && !match) match = row.id;
  if (!match) return false;
  const { numUpdatedRows } = await db.updateTable('staff_recovery_codes').set({ used_at: now() }).where('id', '=', match).where('used_at', 'is', null).executeTakeFirst();
  return numUpdatedRows > 0n;
}

export async function unusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('staff_recovery_codes').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function removeAuthenticator(db: Db, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('staff_recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('staff_authenticators').where('user_id', '=', userId).execute();
  });
}

/** `otpauth://` URI for QR codes: the account is the e-mail, the issuer the site title. */
export function otpauthUri(secret: string, email: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${email}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=${APP_CODE.stepSeconds}`;
}
