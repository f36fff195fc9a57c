import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** HOTP (RFC 4226) with HMAC-SHA1 and 6 digits. */
export function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', key).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const value = ((digest[offset]! & 0x7f) << 24) | (digest[offset + 1]! << 16) | (digest[offset + 2]! << 8) | digest[offset + 3]!;
  return String(value % 1_000_000).padStart(6, '0');
}

/** A six-digit code as clients send it (a JSON string, or a number); null for anything else. */
export function normaliseCode(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value).padStart(6, '0') : value;
  return typeof text === 'string' && /^\d{6}$/.test(text.trim()) ? text.trim() : null;
}

function sameCode(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * The time step (RFC 6238) whose code equals `code`, looking `window` steps either side of now; every
 * candidate is compared in constant time, so the answer's timing says nothing about the code.
 */
export function matchTotp(key: Buffer, code: unknown, options: { stepSeconds: number; window: number; at?: number }): number | null {
  const given = normaliseCode(code);
  if (!given) return null;
  const current = Math.floor((options.at ?? Date.now()) / 1000 / options.stepSeconds);
  let found: number | null = null;
  for (let step = current - options.window; step <= current + options.window; step++) {
    if (sameCode(hotp(key, step), given) && found === null) found = step;
  }
  return found;
}

// Ghost's e-mailed sign-in code (`services/auth/otp.js`, otplib totp): 60-second steps, ±10 steps accepted,
// keyed with the site's session secret followed by the user id, so it needs no stored state.
const EMAIL_CODE = { stepSeconds: 60, window: 10 } as const;
const emailKey = (sessionSecret: string, userId: string) => Buffer.from(sessionSecret + userId, 'latin1');

export function emailCode(sessionSecret: string, userId: string, at = Date.now()): string {
  return hotp(emailKey(sessionSecret, userId), Math.floor(at / 1000 / EMAIL_CODE.stepSeconds));
}

export function emailCodeIsValid(sessionSecret: string, userId: string, code: unknown, at = Date.now()): boolean {
  return matchTotp(emailKey(sessionSecret, userId), code, { ...EMAIL_CODE, at }) !== null;
}

// Authenticator apps (RFC 6238 defaults every app understands): 30-second steps, one step of clock drift.
export const APP_CODE = { stepSeconds: 30, window: 1 } as const;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new authenticator secret: 20 random bytes, the size RFC 4226 recommends for HMAC-SHA1. */
export const newAppSecret = () => base32Encode(randomBytes(20));
