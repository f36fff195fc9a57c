import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Ctx } from '../../ctx.js';
import { LIMITERS, hit, reset, type Limiter } from '../../auth/brute.js';
import { errors } from '../../errors.js';

/**
 * `send-magic-link`'s spam limits, Ghost's two express-brute limiters, counted in the shared `brute` table
 * so every instance sees the same counts:
 * - per client address (`spam.member_login`): 9 requests, then a wait from 10 minutes up to 12 hours;
 * - per client address and e-mail (`spam.user_login`): 5 requests, then a wait from 10 minutes up to a
 *   week; a sign-in through the mailed link forgets this one.
 */
const refuse = (message: string) => (wait: string) =>
  errors.tooManyRequests({ message: `${message} ${wait}`, context: 'Too many login attempts.', help: 'Too many login attempts.' });

export const MEMBER_LIMITERS = {
  perAddress: Object.freeze({
    name: 'member_login',
    freeRetries: 8,
    minWait: 10 * 60 * 1000,
    maxWait: 12 * 60 * 60 * 1000,
    lifetime: 43200,
    refuse: refuse('Too many different sign-in attempts, try again in'),
  }) satisfies Limiter,
  perEmail: Object.freeze({ ...LIMITERS.userLogin, name: 'members_auth', refuse: refuse('Too many sign-in attempts try again in') }) satisfies Limiter,
};

const emailKey = (email: unknown) => (typeof email === 'string' && email ? `${email}login` : '');

/** Counts one `send-magic-link` request against both limits, or refuses it with Ghost's 429 (counters outside `ctx.write`, as the staff login limits: see `Ctx.autocommitDb`). */
export async function countSendAttempt(ctx: Ctx, ip: string, email: unknown): Promise<void> {
  const now = ctx.clock.epochMs();
  await hit(ctx.autocommitDb, MEMBER_LIMITERS.perAddress, ip, '', now);
  await hit(ctx.autocommitDb, MEMBER_LIMITERS.perEmail, ip, emailKey(email), now);
}

/** A member who signed in through a link starts afresh (the per-address count is kept: see Ghost's note). */
export async function forgetSendAttempts(ctx: Ctx, ip: string, email: string): Promise<void> {
  await reset(ctx.autocommitDb, MEMBER_LIMITERS.perEmail, ip, emailKey(email));
}

/** Ghost's request integrity tokens: `<expiry ms>:<nonce>:<HMAC-SHA256>`, valid five minutes. */
const INTEGRITY_MS = 5 * 60 * 1000;

export function integrityToken(secret: string, now: number): string {
  const expiry = String(now + INTEGRITY_MS);
  const nonce = randomBytes(16).toString('hex');
  return `${expiry}:${nonce}:${createHmac('sha256', secret).update(`${expiry}:${nonce}`).digest('hex')}`;
}

export function validIntegrityToken(secret: string, token: unknown, now: number): boolean {
  if (typeof token !== 'string') return false;
  const parts = token.split(':');
  if (parts.length !== 3) return false;
  const [stamp, nonce, digest] = parts as [string, string, string];
  const expiry = parseInt(stamp, 10);
  const expected = Buffer.from(createHmac('sha256', secret).update(`${expiry}:${nonce}`).digest('hex'));
  const given = Buffer.from(digest);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  return now <= expiry;
}
