import { createHash } from 'node:crypto';
import type { Db } from '../db/connect.js';
import type { ReadDb } from '../db/read-db.js';
import { ConstraintError, translated } from '../db/errors.js';
import { errors, type GhostError } from '../errors.js';

/**
 * Ghost's brute-force limiters (express-brute semantics, `spam.*` defaults), counted in the `brute` table
 * so every instance on the database shares them. Each request through a limiter counts; while the count is
 * within `freeRetries` it passes, after that it must wait a delay growing Fibonacci-style from `minWait`
 * to `maxWait` after the last counted request. A counter is forgotten `lifetime` seconds after it started.
 */
export interface Limiter {
  readonly name: string;
  readonly freeRetries: number;
  readonly minWait: number;
  readonly maxWait: number;
  /** Seconds. */
  readonly lifetime: number;
  readonly refuse: (wait: string) => GhostError;
}

const HOUR = 60 * 60 * 1000;

function delaysOf(minWait: number, maxWait: number): number[] {
  const delays = [minWait];
  while (delays[delays.length - 1]! < maxWait) {
    const n = delays.length;
    delays.push(delays[n - 1]! + (n > 1 ? delays[n - 2]! : 0));
  }
  delays[delays.length - 1] = maxWait;
  return delays;
}

function limiter(spec: Omit<Limiter, 'lifetime'> & { lifetime?: number }): Limiter {
  // express-brute's default lifetime when none is configured (user_login has none).
  const lifetime = spec.lifetime ?? Math.ceil((spec.maxWait / 1000) * (delaysOf(spec.minWait, spec.maxWait).length + spec.freeRetries));
  return Object.freeze({ ...spec, lifetime });
}

/** Ghost's hourly limiters: `freeRetries` counted requests, then a wait until the hour since the first is out. */
const hourly = (name: string, freeRetries: number, refuse: Limiter['refuse']) =>
  limiter({ name, freeRetries, minWait: HOUR, maxWait: HOUR, lifetime: 3600, refuse });

const tooManyAttempts = () => errors.tooManyRequests('Too many attempts.');

/** The 429 of an hourly limiter per IP address that lets `tries` requests through. */
const tooManyTriesPerIp = (tries: number, help: string) => (wait: string) =>
  errors.tooManyRequests({
    message: `Too many attempts try again in ${wait}`,
    context: `Only ${tries} tries per IP address every 3600 seconds.`,
    help,
  });

export const LIMITERS = {
  /** `POST /session/` per IP; a successful login resets it. */
  userLogin: limiter({
    name: 'user_login',
    freeRetries: 4,
    minWait: 10 * 60 * 1000,
    maxWait: 7 * 24 * HOUR,
    refuse: (wait) =>
      errors.tooManyRequests({
        message: `Too many login attempts. Please wait ${wait} before trying again, or reset your password.`,
        context: 'Too many login attempts.',
        help: 'Too many login attempts.',
      }),
  }),
  /** `POST /session/` and `PUT /authentication/password_reset/`, per IP and path. */
  globalBlock: hourly('global_block', 99, tooManyTriesPerIp(100, 'Too many attempts.')),
  /** `POST /authentication/password_reset/`, per IP and path. */
  globalReset: hourly('global_reset', 4, tooManyTriesPerIp(5, 'Forgotten password reset attempt failed')),
  /** `POST /authentication/password_reset/`, per IP and e-mail address. */
  userReset: hourly('user_reset', 4, (wait) =>
    errors.tooManyRequests({
      message: `Too many password reset attempts try again in ${wait}`,
      context: 'Only 5 forgotten password attempts per email every 3600 seconds.',
      help: 'Forgotten password reset attempt failed',
    }),
  ),
  /** `POST /session/verify/` per IP: each request sends an e-mail. */
  sendVerificationCode: hourly('send_verification_code', 4, tooManyAttempts),
  /** `PUT /session/verify/` per IP: guesses of the six-digit code. */
  userVerification: hourly('user_verification', 4, tooManyAttempts),
  /** `POST /email_previews/posts/:id/` per IP: ten test sends, then one every six minutes within the hour. */
  emailPreview: limiter({
    name: 'email_preview_block',
    freeRetries: 10,
    minWait: 360_000,
    maxWait: 360_000,
    lifetime: 3600,
    refuse: () => errors.tooManyRequests('Only 10 test emails can be sent per hour'),
  }),
  /** `POST <site>/private/` per IP, every try counted (a right password too): a private site's password form. */
  privateBlog: hourly('privateblog', 99, (wait) => errors.tooManyRequests(`Too many private sign-in attempts try again in ${wait}`)),
  /** Failed uses of one password-reset token (any IP): the token locks after ten. */
  resetToken: limiter({
    name: 'reset_token',
    freeRetries: 9,
    minWait: 24 * HOUR,
    maxWait: 24 * HOUR,
    lifetime: 24 * 3600,
    refuse: () => errors.noPermission('Token locked'),
  }),
} as const;

const rowKey = (limiter: Limiter, ip: string, key: string) => createHash('sha256').update(`${ip}\u0000${limiter.name}\u0000${key}`).digest('hex');

/**
 * Counts one request against `limiter` for this client and key, or refuses it with the limiter's 429.
 * Concurrent requests (any instance) are serialised by a compare-and-set on the stored counter.
 */
export async function hit(db: Db, limiter: Limiter, ip: string, key: string, now: number): Promise<void> {
  const id = rowKey(limiter, ip, key);
  const delays = delaysOf(limiter.minWait, limiter.maxWait);
  // Counters of clients that never came back would pile up: now and then, sweep the expired ones.
  if (Math.random() < 0.01) await pruneExpired(db, now);
  for (let attempt = 0; attempt < 8; attempt++) {
    const row = await db.selectFrom('brute').selectAll().where('key', '=', id).executeTakeFirst();
    const live = row && row.expires > now ? row : undefined;
    let count = live?.count ?? 0;
    let first = live?.first_request ?? now;
    let nextValid = live?.last_request ?? now;
    const delayIndex = count - limiter.freeRetries - 1;
    if (live && delayIndex >= 0) nextValid += delays[Math.min(delayIndex, delays.length - 1)]!;
    let remaining = limiter.lifetime - Math.floor((now - first) / 1000);
    if (remaining < 1) {
      count = 0;
      first = nextValid = now;
      remaining = limiter.lifetime;
    }
    if (nextValid > now && count > limiter.freeRetries) throw limiter.refuse(humanizeDuration(nextValid - now));

    const values = { count: count + 1, first_request: first, last_request: now, expires: now + remaining * 1000 };
    if (!row) {
      try {
        await translated(() =>
          db
            .insertInto('brute')
            .values({ key: id, ...values })
            .execute(),
        );
        return;
      } catch (err) {
        if (err instanceof ConstraintError && err.kind === 'unique') continue;
        throw err;
      }
    }
    const { numUpdatedRows } = await db
      .updateTable('brute')
      .set(values)
      .where('key', '=', id)
      .where('count', '=', row.count)
      .where('last_request', '=', row.last_request)
      .executeTakeFirst();
    if (numUpdatedRows > 0n) return;
  }
  // Only under extreme contention on one key: refuse rather than let requests through uncounted.
  throw limiter.refuse(humanizeDuration(limiter.minWait));
}

/** How many requests the live counter holds (0 when none): for checks that count only failures. */
export async function currentCount(db: ReadDb, limiter: Limiter, ip: string, key: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('brute')
    .select(['count', 'expires'])
    .where('key', '=', rowKey(limiter, ip, key))
    .executeTakeFirst();
  return row && row.expires > now ? row.count : 0;
}

/** Forgets the counter (a successful login resets `user_login`). */
export async function reset(db: Db, limiter: Limiter, ip: string, key: string): Promise<void> {
  await db
    .deleteFrom('brute')
    .where('key', '=', rowKey(limiter, ip, key))
    .execute();
}

/** Drops counters whose lifetime is over; cheap, run now and then. */
export async function pruneExpired(db: Db, now: number): Promise<void> {
  await db.deleteFrom('brute').where('expires', '<=', now).execute();
}

/** moment's `fromNow(true)` in English: `a few seconds`, `10 minutes`, `an hour`, `7 days`, … */
export function humanizeDuration(ms: number): string {
  const abs = Math.abs(ms);
  const seconds = Math.round(abs / 1000);
  const minutes = Math.round(abs / 60_000);
  const hours = Math.round(abs / 3_600_000);
  const days = Math.round(abs / 86_400_000);
  const months = Math.round(abs / 86_400_000 / 30.436875);
  const years = Math.round(abs / 86_400_000 / 365.2425);
  if (seconds <= 44) return 'a few seconds';
  if (seconds < 45) return `${seconds} seconds`;
  if (minutes <= 1) return 'a minute';
  if (minutes < 45) return `${minutes} minutes`;
  if (hours <= 1) return 'an hour';
  if (hours < 22) return `${hours} hours`;
  if (days <= 1) return 'a day';
  if (days < 26) return `${days} days`;
  if (months <= 1) return 'a month';
  if (months < 11) return `${months} months`;
  return years <= 1 ? 'a year' : `${years} years`;
}
