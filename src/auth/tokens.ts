import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Ghost's e-mailed tokens (`@tryghost/security`): base64 of `"<expires ms>|<email>|<base64 sha256>"`,
 * put in links URL-safe (`+`→`-`, `/`→`_`, no `=`). The hash binds the expiry, the lower-cased e-mail and
 * secrets only the server knows, so tokens need no storage (reset) or are stored only as a hash (invites).
 */
export const urlSafe = (token: string) => token.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function fromUrlSafe(text: string): string {
  let token = text.replace(/-/g, '+').replace(/_/g, '/');
  while (token.length % 4) token += '=';
  return token;
}

const digest = (...parts: string[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('base64');
};

const pack = (expires: number, email: string, hash: string) => Buffer.from([expires, email, hash].join('|')).toString('base64');

/** Invitation token (`generateFromEmail`), keyed with the site's `db_hash`. */
export function inviteToken(email: string, expires: number, dbHash: string): string {
  return pack(expires, email, digest(String(expires), email.toLocaleLowerCase(), dbHash));
}

/** sha256 of a token, as stored: lookups by hash reveal nothing about the token through timing. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Password-reset token: also keyed with the current password hash, so it dies when the password changes. */
export function resetToken(email: string, expires: number, dbHash: string, passwordHash: string): string {
  return pack(expires, email, digest(String(expires), email.toLocaleLowerCase(), passwordHash, dbHash));
}

/** `expires` and `email` of a token, or null when it does not have Ghost's three parts. */
export function tokenParts(token: string): { expires: number; email: string } | null {
  const parts = Buffer.from(token, 'base64').toString('latin1').split('|');
  if (parts.length !== 3) return null;
  return { expires: parseInt(parts[0]!, 10), email: parts[1]! };
}

export type ResetCheck = { ok: true } | { ok: false; reason: 'expired' | 'invalid' };

/** Ghost's `resetToken.compare`: expiry first, then the whole token in constant time. */
export function checkResetToken(token: string, dbHash: string, passwordHash: string, now = Date.now()): ResetCheck {
  const parts = tokenParts(token);
  if (!parts || Number.isNaN(parts.expires) || parts.expires < now) return { ok: false, reason: 'expired' };
  const expected = Buffer.from(resetToken(parts.email, parts.expires, dbHash, passwordHash));
  const given = Buffer.from(token);
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  return same ? { ok: true } : { ok: false, reason: 'invalid' };
}
