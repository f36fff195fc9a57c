import { createGuardrails, generateSecret, generateSync, ScureBase32Plugin, verifySync } from 'otplib';

// Codes come from otplib (the library Ghost uses for its e-mailed codes), with its default pure-JS HMAC.
// Its guardrails allow keys of 16 to 64 bytes; Ghost's e-mail key (64-character session secret + user id)
// is longer, and HMAC takes any key length (a long key is hashed first), so the upper bound is raised.
const guardrails = createGuardrails({ MAX_SECRET_BYTES: 1024 });

/** HOTP (RFC 4226) with HMAC-SHA1 and 6 digits. */
export function hotp(key: Uint8Array, counter: number): string {
  return generateSync({ strategy: 'hotp', secret: key, counter, guardrails });
}

/** A six-digit code as clients send it (a JSON string, or a number); null for anything else. */
export function normaliseCode(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value).padStart(6, '0') : value;
  return typeof text === 'string' && /^\d{6}$/.test(text.trim()) ? text.trim() : null;
}

/**
 * The time step (RFC 6238) whose code equals `code`, looking `window` steps either side of now. otplib
 * compares each candidate in constant time, so the answer's timing says nothing about the code.
 */
export function matchTotp(key: Uint8Array, code: unknown, options: { stepSeconds: number; window: number; at: number }): number | null {
  const token = normaliseCode(code);
  if (!token) return null;
  const epoch = Math.floor(options.at / 1000);
  const result = verifySync({
    strategy: 'totp',
    secret: key,
    token,
    period: options.stepSeconds,
    epochTolerance: options.window * options.stepSeconds,
    epoch,
    guardrails,
  });
  // `delta` is the matching step's distance from the current one.
  return result.valid ? Math.floor(epoch / options.stepSeconds) + result.delta : null;
}

// Ghost's e-mailed sign-in code (`services/auth/otp.js`, otplib totp): 60-second steps, ±10 steps accepted,
// keyed with the site's session secret followed by the user id, so it needs no stored state.
const EMAIL_CODE = { stepSeconds: 60, window: 10 } as const;
const emailKey = (sessionSecret: string, userId: string) => Buffer.from(sessionSecret + userId, 'latin1');

export function emailCode(sessionSecret: string, userId: string, at: number): string {
  return generateSync({ strategy: 'totp', secret: emailKey(sessionSecret, userId), period: EMAIL_CODE.stepSeconds, epoch: Math.floor(at / 1000), guardrails });
}

export function emailCodeIsValid(sessionSecret: string, userId: string, code: unknown, at: number): boolean {
  return matchTotp(emailKey(sessionSecret, userId), code, { ...EMAIL_CODE, at }) !== null;
}

// Authenticator apps (RFC 6238 defaults every app understands): 30-second steps, one step of clock drift.
export const APP_CODE = { stepSeconds: 30, window: 1 } as const;

const base32 = new ScureBase32Plugin();

// Unpadded RFC 4648 base32, as authenticator apps read it.
export const base32Encode = (bytes: Uint8Array): string => base32.encode(bytes, { padding: false });
export const base32Decode = (text: string): Buffer => Buffer.from(base32.decode(text));

/** A new authenticator secret: 20 random bytes, the size RFC 4226 recommends for HMAC-SHA1. */
export const newAppSecret = () => generateSecret({ length: 20 });
