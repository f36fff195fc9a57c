import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMIN, ORIGIN, adminAuth, cookieOf, ghostError, expectGhostError } from '../../../test/support.js';
import { makeStaff, STAFF_PASSWORD, type StaffUser } from '../../../test/factories.js';
import { currentCode, lastMailTo, loginAs, staffKey } from '../../../test/staff-support.js';
import { useTestSite } from '../../../test/test-site.js';
import { base32Decode, hotp } from '../../auth/otp.js';
import { sealStoredSecrets } from '../../auth/authenticator.js';
import { resolveSecretsKey, secretBox } from '../../auth/secret-box.js';

// E-mailed device verification is off here: an authenticator app alone makes logins ask for a code.
const t = useTestSite({ settings: { STAFF_DEVICE_VERIFICATION: 'false' } });
let client = 0;
const ip = () => `10.4.0.${++client}`;

const appCode = (secret: string, at = Date.now()) => hotp(base32Decode(secret), Math.floor(at / 30_000));
const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url: `${ADMIN}${url}`, remoteAddress: ip(), headers: { cookie, origin: ORIGIN }, ...(payload ? { payload } : {}) });
const loginReq = (user: StaffUser, token?: string) =>
  t.app.inject({
    method: 'POST',
    url: `${ADMIN}/session/`,
    remoteAddress: ip(),
    headers: { origin: ORIGIN },
    payload: { username: user.email, password: STAFF_PASSWORD, ...(token ? { token } : {}) },
  });
const verify = (cookie: string, token: string) => req('PUT', '/session/verify/', cookie, { token });

async function enrolled() {
  const user = await makeStaff(t, 'Author');
  const cookie = await loginAs(t.app, user.email);
  const setup = await req('POST', '/authenticator/', cookie);
  const { secret } = setup.json().authenticator[0];
  const enabled = await req('PUT', '/authenticator/', cookie, { authenticator: [{ token: appCode(secret) }] });
  return { user, cookie, secret, recovery: enabled.json().authenticator[0].recovery_codes as string[] };
}

describe('set-up', () => {
  it('starts with a secret to scan and enables on the first correct code, returning recovery codes once', async () => {
    const user = await makeStaff(t, 'Editor');
    const cookie = await loginAs(t.app, user.email);
    expect((await req('GET', '/authenticator/', cookie)).json()).toEqual({ authenticator: [{ enabled: false, pending: false, recovery_codes_remaining: 0 }] });
    const setup = await req('POST', '/authenticator/', cookie);
    expect(setup.statusCode).toBe(201);
    const { secret, otpauth_url, enabled } = setup.json().authenticator[0];
    expect(enabled).toBe(false);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toBe(
      `otpauth://totp/Test%20Site%3A${encodeURIComponent(user.email)}?secret=${secret}&issuer=Test%20Site&algorithm=SHA1&digits=6&period=30`,
    );

    const wrong = await req('PUT', '/authenticator/', cookie, { authenticator: [{ token: appCode(secret, Date.now() - 10 * 60_000) }] });
    expectGhostError(wrong, { status: 422, type: 'ValidationError', message: 'The code is not valid.' });
    const ok = await req('PUT', '/authenticator/', cookie, { authenticator: [{ token: appCode(secret) }] });
    expect(ok.statusCode).toBe(200);
    const { recovery_codes } = ok.json().authenticator[0];
    expect(recovery_codes).toHaveLength(10);
    expect(recovery_codes[0]).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect((await req('GET', '/authenticator/', cookie)).json().authenticator[0]).toEqual({ enabled: true, pending: false, recovery_codes_remaining: 10 });
    const again = await req('POST', '/authenticator/', cookie);
    expect(ghostError(again)).toMatchObject({ type: 'ValidationError', message: 'An authenticator app is already enabled. Remove it before adding another.' });
  });

  it('is for people at a browser only: staff tokens are refused', async () => {
    const user = await makeStaff(t, 'Editor');
    const key = await staffKey(t.app, await loginAs(t.app, user.email));
    const res = await t.admin.get('/authenticator/', adminAuth(key));
    expectGhostError(res, { status: 403, type: 'NoPermissionError', message: 'Staff tokens are not allowed to access this endpoint' });
  });
});

describe('the stored secret', () => {
  const storedSecret = async (userId: string) =>
    (await t.connection.db.selectFrom('staff_authenticators').select('secret').where('user_id', '=', userId).executeTakeFirstOrThrow()).secret;

  it('is sealed: the database holds neither the base32 secret nor its bytes', async () => {
    const { user, secret } = await enrolled();
    const stored = await storedSecret(user.id);
    expect(stored).not.toBe(secret);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(base32Decode(secret).toString('base64url'));
    expect(stored).not.toContain(base32Decode(secret).toString('hex'));
  });

  it('written in plain base32 before sealing keeps working', async () => {
    const { user, secret } = await enrolled();
    await t.connection.db.updateTable('staff_authenticators').set({ secret }).where('user_id', '=', user.id).execute();
    const cookie = cookieOf(await loginReq(user))!;
    expect((await verify(cookie, appCode(secret, Date.now() + 30_000))).statusCode).toBe(200);
  });

  it('written in plain base32 before sealing is sealed at start, and the app keeps working', async () => {
    const { user, secret } = await enrolled();
    await t.connection.db.updateTable('staff_authenticators').set({ secret }).where('user_id', '=', user.id).execute();
    const secrets = secretBox(resolveSecretsKey(t.config).key);
    expect(await sealStoredSecrets(t.connection.db, secrets)).toBeGreaterThanOrEqual(1); // with the row of the test above
    expect(await sealStoredSecrets(t.connection.db, secrets)).toBe(0);
    expect(await storedSecret(user.id)).not.toContain(secret);
    const cookie = cookieOf(await loginReq(user))!;
    expect((await verify(cookie, appCode(secret, Date.now() + 30_000))).statusCode).toBe(200);
  });
});

describe('a key sealed with another SECRETS_KEY', () => {
  it('fails app codes loudly, while recovery codes and the e-mailed code still sign in', async () => {
    const { user, secret, recovery } = await enrolled();
    const foreign = secretBox(randomBytes(32)).seal(base32Decode(secret), `staff_authenticators.secret:${user.id}`);
    await t.connection.db.updateTable('staff_authenticators').set({ secret: foreign }).where('user_id', '=', user.id).execute();
    expect((await loginReq(user, appCode(secret, Date.now() + 30_000))).statusCode).toBe(500);
    expect((await loginReq(user, recovery[0]!)).statusCode).toBe(201);
    expect((await loginReq(user, await currentCode(t, user.id))).statusCode).toBe(201);
  });
});

describe('login with an authenticator app', () => {
  it("asks for a code even with e-mailed verification off, still mails one, and accepts the app's code once", async () => {
    const { user, secret } = await enrolled();
    const res = await loginReq(user);
    expectGhostError(res, { status: 403, type: 'Needs2FAError', message: 'User must verify session to login.' });
    expect((await lastMailTo(t, user.email))!.subject).toMatch(/^\d{6} is your Ghost sign in verification code$/);
    const cookie = cookieOf(res)!;
    // The code used to enable the app cannot be replayed (same 30 s step); a code from the next step works.
    const next = appCode(secret, Date.now() + 30_000);
    expect((await verify(cookie, next)).statusCode).toBe(200);
    expect((await req('GET', '/users/me/', cookie)).statusCode).toBe(200);
    const other = cookieOf(await loginReq(user))!;
    expect((await verify(other, next)).statusCode).toBe(401);
  });

  it('still accepts the e-mailed code', async () => {
    const { user } = await enrolled();
    const cookie = cookieOf(await loginReq(user))!;
    expect((await verify(cookie, await currentCode(t, user.id))).statusCode).toBe(200);
  });

  it('accepts each recovery code once', async () => {
    const { user, recovery, cookie: own } = await enrolled();
    const first = cookieOf(await loginReq(user))!;
    expect((await verify(first, recovery[0]!.toUpperCase())).statusCode).toBe(200);
    const second = cookieOf(await loginReq(user))!;
    expect((await verify(second, recovery[0]!)).statusCode).toBe(401);
    expect((await loginReq(user, recovery[1]!.replace('-', ''))).statusCode).toBe(201);
    expect((await req('GET', '/authenticator/', own)).json().authenticator[0].recovery_codes_remaining).toBe(8);
  });

  it('new recovery codes and removal need the password; afterwards logins need no code again', async () => {
    const { user, cookie, recovery } = await enrolled();
    const wrong = await req('POST', '/authenticator/recovery_codes/', cookie, { authenticator: [{ password: 'wrong' }] });
    expect(ghostError(wrong)).toMatchObject({ type: 'ValidationError', message: 'Your password is incorrect.', code: 'PASSWORD_INCORRECT' });
    const fresh = await req('POST', '/authenticator/recovery_codes/', cookie, { authenticator: [{ password: STAFF_PASSWORD }] });
    expect(fresh.json().authenticator[0].recovery_codes).toHaveLength(10);
    expect((await loginReq(user, recovery[2]!)).statusCode).toBe(403);

    expect(ghostError(await req('DELETE', '/authenticator/', cookie, { authenticator: [{}] }))).toMatchObject({
      message: 'Password is required for this operation',
    });
    expect((await req('DELETE', '/authenticator/', cookie, { authenticator: [{ password: STAFF_PASSWORD }] })).statusCode).toBe(204);
    expect((await loginReq(user)).statusCode).toBe(201);
  });
});
