import { createHmac, timingSafeEqual } from 'node:crypto';
import { errors } from '../errors.js';

/** Tokens older than this (from `iat`) are refused, whatever their `exp` says. */
const MAX_AGE_SECONDS = 5 * 60;

export interface DecodedToken {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: string;
  signature: string;
}

function decodePart(part: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** Decodes without verifying, as `jsonwebtoken.decode(token, {complete: true})` does; null when it cannot. */
export function decodeToken(token: string): DecodedToken | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const header = decodePart(parts[0]!);
  const payload = decodePart(parts[1]!);
  if (!header || !payload) return null;
  return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: parts[2]! };
}

function invalid(reason: string) {
  return errors.unauthorized({ message: `Invalid token: ${reason}`, code: 'INVALID_JWT' });
}

/**
 * Verifies a decoded admin token against the key's hex secret with the checks, order and messages of
 * jsonwebtoken 8.5.1 as Ghost configures it: HS256 only, signature, nbf, exp, aud, then iat within 5 minutes
 * (not for URL tokens: `maxAge: false`).
 */
export function verifyAdminToken(token: DecodedToken, hexSecret: string, audience: RegExp, nowMs = Date.now(), { maxAge = true } = {}): void {
  if (token.header.alg !== 'HS256') throw invalid('invalid algorithm');
  if (!token.signature) throw invalid('jwt signature is required');
  const expected = createHmac('sha256', Buffer.from(hexSecret, 'hex')).update(token.signingInput).digest();
  const given = Buffer.from(token.signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid('invalid signature');

  const { payload } = token;
  const clock = Math.floor(nowMs / 1000);
  if (payload.nbf !== undefined) {
    if (typeof payload.nbf !== 'number') throw invalid('invalid nbf value');
    if (payload.nbf > clock) throw invalid('jwt not active');
  }
  if (payload.exp !== undefined) {
    if (typeof payload.exp !== 'number') throw invalid('invalid exp value');
    if (clock >= payload.exp) throw invalid('jwt expired');
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.some((aud) => typeof aud === 'string' && audience.test(aud))) {
    throw invalid(`jwt audience invalid. expected: ${audience.toString()}`);
  }
  // Ghost's scheduler signs tokens without `iat`, valid from 10 minutes before the publish to 6 hours after.
  if (!maxAge) return;
  if (typeof payload.iat !== 'number') throw invalid('iat required when maxAge is specified');
  if (clock >= payload.iat + MAX_AGE_SECONDS) throw invalid('maxAge exceeded');
  // Beyond Ghost: an `iat` in the future (typically milliseconds instead of seconds) would never reach
  // the 5-minute limit, leaving a token usable for years. Clock skew up to the same 5 minutes is allowed.
  if (payload.iat > clock + MAX_AGE_SECONDS) throw invalid('jwt issued in the future');
}

/** Signs an admin token for `<id>:<secret>` keys, as the Admin API SDK does (used by the CLI and tests). */
export function signAdminToken(key: string, options: { iat?: number; exp?: number; aud?: unknown; alg?: string; kid?: string | null } = {}): string {
  const [id, secret] = key.split(':');
  const iat = options.iat ?? Math.floor(Date.now() / 1000);
  const header: Record<string, unknown> = { alg: options.alg ?? 'HS256', typ: 'JWT' };
  if (options.kid !== null) header.kid = options.kid ?? id;
  const payload: Record<string, unknown> = { iat, exp: options.exp ?? iat + 300, aud: options.aud ?? '/admin/' };
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${createHmac('sha256', Buffer.from(secret!, 'hex')).update(input).digest('base64url')}`;
}
