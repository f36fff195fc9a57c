import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/connect.js';
import type { ReadDb } from '../db/read-db.js';
import type { StaffAuthenticatorRow } from '../db/schema.js';
import { objectId } from '../db/ids.js';
import { APP_CODE, base32Decode, base32Encode, matchTotp, newAppSecret } from './otp.js';
import { isSealed, type SecretBox } from './secret-box.js';

/**
 * Authenticator apps (beyond Ghost): a user may add a TOTP app as a second way to prove a new device,
 * with single-use recovery codes for a lost phone. The e-mailed code keeps working alongside.
 */
export const RECOVERY_CODE_COUNT = 10;

export function findAuthenticator(db: ReadDb, userId: string): Promise<StaffAuthenticatorRow | undefined> {
  return db.selectFrom('staff_authenticators').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

// The app's key is stored sealed (`secret-box.ts`), bound to its user's row.
const sealContext = (userId: string) => `staff_authenticators.secret:${userId}`;

/** The app's key; rows written before secrets were sealed hold it as plain base32 until `sealStoredSecrets` runs. */
function appKey(secrets: SecretBox, row: StaffAuthenticatorRow): Buffer {
  return isSealed(row.secret) ? secrets.open(row.secret, sealContext(row.user_id)) : base32Decode(row.secret);
}

/** Starts (or restarts) a set-up: a new secret, not yet enabled; returns it in base32 for the user to scan. Run inside a write. */
export async function beginSetup(trx: Db, userId: string, secrets: SecretBox, at: Date): Promise<string> {
  const secret = newAppSecret();
  const sealed = secrets.seal(base32Decode(secret), sealContext(userId));
  await trx.deleteFrom('staff_authenticators').where('user_id', '=', userId).execute();
  await trx
    .insertInto('staff_authenticators')
    .values({ user_id: userId, secret: sealed, enabled: false, last_used_step: null, created_at: at, updated_at: at })
    .execute();
  return secret;
}

/**
 * Seals the app keys stored in plain base32 before sealing existing (run at start). Each row is changed
 * only if it still holds the plain value, so instances starting together do no harm.
 */
export async function sealStoredSecrets(db: Db, secrets: SecretBox): Promise<number> {
  const rows = await db.selectFrom('staff_authenticators').select(['user_id', 'secret']).execute();
  let sealed = 0;
  for (const row of rows.filter((r) => !isSealed(r.secret))) {
    const { numUpdatedRows } = await db
      .updateTable('staff_authenticators')
      .set({ secret: secrets.seal(base32Decode(row.secret), sealContext(row.user_id)) })
      .where('user_id', '=', row.user_id)
      .where('secret', '=', row.secret)
      .executeTakeFirst();
    sealed += Number(numUpdatedRows);
  }
  return sealed;
}

/**
 * Accepts a code from the app once: the step it matched is remembered, and a compare-and-set makes two
 * concurrent requests with the same code succeed at most once.
 */
export async function useAppCode(db: Db, row: StaffAuthenticatorRow, code: unknown, secrets: SecretBox, at: Date): Promise<boolean> {
  const step = matchTotp(appKey(secrets, row), code, { ...APP_CODE, at: at.getTime() });
  if (step === null || (row.last_used_step !== null && step <= row.last_used_step)) return false;
  let update = db.updateTable('staff_authenticators').set({ last_used_step: step, updated_at: at }).where('user_id', '=', row.user_id);
  update = row.last_used_step === null ? update.where('last_used_step', 'is', null) : update.where('last_used_step', '=', row.last_used_step);
  const { numUpdatedRows } = await update.executeTakeFirst();
  return numUpdatedRows > 0n;
}

const normaliseRecovery = (value: string) => value.toLowerCase().replace(/[\s-]/g, '');
const hashRecovery = (value: string) => createHash('sha256').update(normaliseRecovery(value)).digest('hex');

/** New recovery codes (`xxxxx-xxxxx`, 50 random bits each), replacing any earlier ones; shown once. Run inside a write. */
export async function replaceRecoveryCodes(trx: Db, userId: string, at: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
  await trx.deleteFrom('staff_recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('staff_recovery_codes')
    .values(codes.map((code) => ({ id: objectId(), user_id: userId, code_hash: hashRecovery(code), used_at: null, created_at: at })))
    .execute();
  return codes;
}

/** Turns the user's authenticator app on once its first code is confirmed. Run inside a write. */
export async function enableAuthenticator(trx: Db, userId: string, at: Date): Promise<void> {
  await trx.updateTable('staff_authenticators').set({ enabled: true, updated_at: at }).where('user_id', '=', userId).execute();
}

/** Spends one unused recovery code of the user; every stored hash is compared in constant time. */
export async function useRecoveryCode(db: Db, userId: string, code: unknown, at: Date): Promise<boolean> {
  if (typeof code !== 'string' || normaliseRecovery(code).length !== 10) return false;
  const given = Buffer.from(hashRecovery(code));
  const rows = await db.selectFrom('staff_recovery_codes').select(['id', 'code_hash']).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  let match: string | null = null;
  for (const row of rows) if (timingSafeEqual(Buffer.from(row.code_hash), given) && !match) match = row.id;
  if (!match) return false;
  const { numUpdatedRows } = await db
    .updateTable('staff_recovery_codes')
    .set({ used_at: at })
    .where('id', '=', match)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

export async function unusedRecoveryCodes(db: ReadDb, userId: string): Promise<number> {
  const row = await db
    .selectFrom('staff_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Run inside a write. */
export async function removeAuthenticator(trx: Db, userId: string): Promise<void> {
  await trx.deleteFrom('staff_recovery_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('staff_authenticators').where('user_id', '=', userId).execute();
}

/** `otpauth://` URI for QR codes: the account is the e-mail, the issuer the site title. */
export function otpauthUri(secret: string, email: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${email}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=${APP_CODE.stepSeconds}`;
}
