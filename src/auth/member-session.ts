import { createHash, createHmac, createPrivateKey, createPublicKey, sign as rsaSign, verify as rsaVerify, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * A member's browser session, as Ghost's members-ssr keeps it: the cookie `ghost-members-ssr` holds the
 * member's `transient_id` (changing it ends every session), and `ghost-members-ssr.sig` its signature as the
 * `cookies`/`keygrip` libraries compute it (HMAC-SHA1 of `name=value` keyed with the `theme_session_secret`
 * setting, base64 with `/+=` made URL-safe). Nothing is kept in memory: any instance reads any session.
 */
export const MEMBER_COOKIE = 'ghost-members-ssr';
const SIG_COOKIE = `${MEMBER_COOKIE}.sig`;
/** members-ssr's default: 184 days. */
const SESSION_MS = 1000 * 60 * 60 * 24 * 184;

/** keygrip's signature of `data`. */
export function cookieSignature(data: string, secret: string): string {
  return createHmac('sha1', secret)
    .update(data)
    .digest('base64')
    .replace(/\/|\+|=/g, (c) => (c === '/' ? '_' : c === '+' ? '-' : ''));
}

/** The `Set-Cookie` header of one cookie, attributes in the `cookies` library's order. */
function cookieHeader(name: string, value: string, expires: Date, secure: boolean): string {
  return `${name}=${value}; path=/; expires=${expires.toUTCString()}; samesite=lax${secure ? '; secure' : ''}; httponly`;
}

/** The two cookies that start a session for the member with this transient id. */
export function sessionCookies(transientId: string, secret: string, secure: boolean, now: number): string[] {
  const expires = new Date(now + SESSION_MS);
  return [
    cookieHeader(MEMBER_COOKIE, transientId, expires, secure),
    cookieHeader(SIG_COOKIE, cookieSignature(`${MEMBER_COOKIE}=${transientId}`, secret), expires, secure),
  ];
}

/** The two cookies that end the session (empty value, expired at the epoch, as `cookies` clears one). */
export function clearedSessionCookies(secret: string, secure: boolean): string[] {
  const epoch = new Date(0);
  return [cookieHeader(MEMBER_COOKIE, '', epoch, secure), cookieHeader(SIG_COOKIE, cookieSignature(`${MEMBER_COOKIE}=`, secret), epoch, secure)];
}

/** One cookie's value from a `Cookie` header, as `cookies` finds it (first match, not decoded). */
function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The transient id of a correctly signed session cookie, or null (no cookie, no signature, a forged one). */
export function sessionTransientId(cookieHeaderValue: string | undefined, secret: string): string | null {
  if (!cookieHeaderValue) return null;
  const value = cookieValue(cookieHeaderValue, MEMBER_COOKIE);
  const sig = cookieValue(cookieHeaderValue, SIG_COOKIE);
  if (!value || !sig) return null;
  const expected = Buffer.from(cookieSignature(`${MEMBER_COOKIE}=${value}`, secret));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given) ? value : null;
}

/** The members key pair (settings `members_private_key`, PKCS#1 PEM), parsed once per key. */
interface MemberKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: { kty: 'RSA'; kid: string; n: string; e: string };
}
let cached: { pem: string; keys: MemberKeys } | null = null;

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function memberKeys(privatePem: string): MemberKeys {
  if (cached?.pem === privatePem) return cached.keys;
  const privateKey = createPrivateKey(privatePem);
  const publicKey = createPublicKey(privateKey);
  const { n, e } = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  // node-jose names an imported key by its RFC 7638 thumbprint (SHA-256 of the canonical JWK).
  const kid = base64url(
    createHash('sha256')
      .update(JSON.stringify({ e, kty: 'RSA', n }))
      .digest(),
  );
  const keys: MemberKeys = { privateKey, publicKey, jwk: { kty: 'RSA', kid, n, e } };
  cached = { pem: privatePem, keys };
  return keys;
}

/** `/members/.well-known/jwks.json`: the public half, as node-jose's key store prints it. */
export function memberJwks(privatePem: string): { keys: MemberKeys['jwk'][] } {
  return { keys: [memberKeys(privatePem).jwk] };
}

/**
 * Ghost's member identity token: RS512, ten minutes, issuer and audience `<site>/members/api`, subject the
 * member's e-mail, the key id in the header and the claims (jsonwebtoken's header and claim order).
 */
export function identityToken(privatePem: string, issuer: string, email: string, nowMs: number): string {
  const { privateKey, jwk } = memberKeys(privatePem);
  const iat = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS512', typ: 'JWT', kid: jwk.kid }));
  const payload = base64url(JSON.stringify({ sub: email, kid: jwk.kid, iat, exp: iat + 600, aud: issuer, iss: issuer }));
  const signature = rsaSign('sha512', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

/**
 * Checks an identity token made by `identityToken` (signature, issuer, audience, expiry) and returns its
 * subject, the member's e-mail, or null.
 */
export function verifyIdentityToken(privatePem: string, issuer: string, token: string, nowMs: number): string | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  try {
    const { publicKey } = memberKeys(privatePem);
    if (!rsaVerify('sha512', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))) return null;
    const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string };
    if (head.alg !== 'RS512') return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub?: unknown; exp?: unknown; iss?: unknown; aud?: unknown };
    if (claims.iss !== issuer || claims.aud !== issuer) return null;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= nowMs) return null;
    return typeof claims.sub === 'string' ? claims.sub : null;
  } catch {
    return null;
  }
}

/** Ghost's key for unsubscribe links: HMAC-SHA256 of the member's uuid with `members_email_auth_secret` (as a string). */
export function memberUuidKey(uuid: string, secret: string): string {
  return createHmac('sha256', secret).update(uuid).digest('hex');
}

/** Compares two hex keys without leaking where they differ. */
export function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
