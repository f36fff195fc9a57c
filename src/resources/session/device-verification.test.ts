import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { ADMIN, ORIGIN, OWNER, cookieOf, ghostError, expectGhostError } from '../../../test/support.js';
import { makeStaff, STAFF_PASSWORD, type StaffUser } from '../../../test/factories.js';
import { appRefusingMail, currentCode, lastMailTo, outbox } from '../../../test/staff-support.js';
import { writeSettings } from '../../settings/settings.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite({ settings: { STAFF_DEVICE_VERIFICATION: 'true' } });
let client = 0;
const ip = () => `10.2.${Math.floor(++client / 250)}.${client % 250}`;

const loginReq = (user: { email: string }, options: { cookie?: string; token?: unknown; password?: string; remoteAddress?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `${ADMIN}/session/`,
    remoteAddress: options.remoteAddress ?? ip(),
    headers: { origin: ORIGIN, ...(options.cookie ? { cookie: options.cookie } : {}) },
    payload: { username: user.email, password: options.password ?? STAFF_PASSWORD, ...(options.token !== undefined ? { token: options.token } : {}) },
  });
const verify = (cookie: string | undefined, token: unknown, remoteAddress = ip()) =>
  t.app.inject({
    method: 'PUT',
    url: `${ADMIN}/session/verify/`,
    remoteAddress,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    payload: { token },
  });
const me = (cookie: string) => t.admin.get('/users/me/', { cookie, origin: ORIGIN });
const codeFromMail = async (user: StaffUser) => /^(\d{6}) is your Ghost sign in verification code$/.exec((await lastMailTo(t, user.email))!.subject)![1]!;

/** A user who has logged in once already (first logins need no code, as in Ghost). */
async function knownUser(role: 'Author' | 'Editor' = 'Author') {
  const user = await makeStaff(t, role);
  expect((await loginReq(user)).statusCode).toBe(201);
  return user;
}

describe('login from a new device', () => {
  it('lets a first login through without a code', async () => {
    const user = await makeStaff(t, 'Editor');
    const res = await loginReq(user);
    expect(res.statusCode).toBe(201);
    expect((await me(cookieOf(res)!)).statusCode).toBe(200);
  });

  it('answers 403 Needs2FAError with the cookie, mails a code, and the unverified cookie authenticates nothing', async () => {
    const user = await knownUser();
    const res = await loginReq(user);
    expectGhostError(res, {
      status: 403,
      type: 'Needs2FAError',
      message: 'User must verify session to login.',
      context: 'A 6-digit sign-in verification code has been sent to your email to keep your account safe.',
      code: '2FA_NEW_DEVICE_DETECTED',
    });
    const cookie = cookieOf(res)!;
    expect(cookie).toBeDefined();
    const mail = (await lastMailTo(t, user.email))!;
    expect(mail.subject).toMatch(/^\d{6} is your Ghost sign in verification code$/);
    expect(mail.text).toContain(await codeFromMail(user));
    const denied = await me(cookie);
    expectGhostError(denied, { status: 403, type: 'NoPermissionError', message: 'Authorization failed' });

    const wrong = await verify(cookie, '000000' === (await codeFromMail(user)) ? '111111' : '000000');
    // Ghost answers a bare text/plain `Unauthorized`; Quire a JSON UnauthorizedError naming the cause (README, Errors).
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(ghostError(wrong)).toMatchObject({ type: 'UnauthorizedError', message: 'The verification code is incorrect, expired or already used.' });
    const right = await verify(cookie, await codeFromMail(user));
    expect(right.statusCode).toBe(200);
    expect(right.body).toBe('OK');
    expect((await me(cookie)).json().users[0].id).toBe(user.id);
  });

  it('accepts the current code in the login body', async () => {
    const user = await knownUser();
    const res = await loginReq(user, { token: await currentCode(t, user.id) });
    expect(res.statusCode).toBe(201);
  });

  it('refuses a code from more than ten minutes ago', async () => {
    const user = await knownUser();
    const cookie = cookieOf(await loginReq(user))!;
    expect((await verify(cookie, await currentCode(t, user.id, Date.now() - 12 * 60_000))).statusCode).toBe(401);
    expect((await verify(cookie, await currentCode(t, user.id, Date.now() - 9 * 60_000))).statusCode).toBe(200);
  });

  it('remembers a verified browser for the same user after logout, not for another user', async () => {
    const user = await knownUser();
    const first = await loginReq(user, { token: await currentCode(t, user.id) });
    const cookie = cookieOf(first)!;
    expect((await t.admin.del('/session/', { cookie, origin: ORIGIN })).statusCode).toBe(204);
    const again = await loginReq(user, { cookie });
    expect(again.statusCode).toBe(201);
    const renewed = cookieOf(again)!;
    expect(renewed).not.toBe(cookie);
    expect((await me(cookie)).statusCode).toBe(403);
    const other = await knownUser();
    expect((await loginReq(other, { cookie: renewed })).statusCode).toBe(403);
  });

  it('sends a new code on POST /session/verify/, and needs a session to do so', async () => {
    const user = await knownUser();
    const cookie = cookieOf(await loginReq(user))!;
    const before = (await outbox(t)).length;
    const res = await t.app.inject({ method: 'POST', url: `${ADMIN}/session/verify/`, remoteAddress: ip(), headers: { cookie, origin: ORIGIN }, payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('OK');
    expect((await outbox(t)).length).toBe(before + 1);
    const none = await t.app.inject({ method: 'POST', url: `${ADMIN}/session/verify/`, remoteAddress: ip(), headers: { origin: ORIGIN }, payload: {} });
    expect(none.statusCode).toBe(400);
    expect(ghostError(none)).toMatchObject({ type: 'BadRequestError', message: 'Could not fetch user from the session.' });
    const noSession = await verify(undefined, '123456');
    expect(noSession.statusCode).toBe(401);
    expect(ghostError(noSession)).toMatchObject({ type: 'UnauthorizedError', message: expect.stringMatching(/^There is no signed-in session to verify/) });
  });

  it('uses the password-reset sign-in code as the login token', async () => {
    const user = await knownUser();
    await t.app.inject({
      method: 'POST',
      url: `${ADMIN}/authentication/password_reset/`,
      remoteAddress: ip(),
      payload: { password_reset: [{ email: user.email }] },
    });
    const token = /\/ghost\/reset\/([A-Za-z0-9_-]+)\//.exec((await lastMailTo(t, user.email))!.text)![1];
    const done = await t.app.inject({
      method: 'PUT',
      url: `${ADMIN}/authentication/password_reset/`,
      remoteAddress: ip(),
      payload: { password_reset: [{ token, newPassword: 'Reset-secret-77', ne2Password: 'Reset-secret-77' }] },
    });
    const code = done.json().password_reset[0].emailVerificationToken;
    expect((await loginReq(user, { password: 'Reset-secret-77', token: code })).statusCode).toBe(201);
  });
});

describe('limits', () => {
  it('allows five codes per address, then 429 Too many attempts. (a correct code starts the count again)', async () => {
    const user = await knownUser();
    const cookie = cookieOf(await loginReq(user))!;
    const address = ip();
    for (let i = 0; i < 4; i++) expect((await verify(cookie, 'abcdef', address)).statusCode).toBe(401);
    expect((await verify(cookie, await currentCode(t, user.id), address)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await verify(cookie, 'abcdef', address)).statusCode).toBe(401);
    const blocked = await verify(cookie, await currentCode(t, user.id), address);
    expectGhostError(blocked, { status: 429, type: 'TooManyRequestsError', message: 'Too many attempts.', context: null });
  });

  it('sends at most five codes per address an hour', async () => {
    const user = await knownUser();
    const cookie = cookieOf(await loginReq(user))!;
    const address = ip();
    const send = () =>
      t.app.inject({ method: 'POST', url: `${ADMIN}/session/verify/`, remoteAddress: address, headers: { cookie, origin: ORIGIN }, payload: {} });
    for (let i = 0; i < 5; i++) expect((await send()).statusCode).toBe(200);
    const blocked = await send();
    expectGhostError(blocked, { status: 429, type: 'TooManyRequestsError', message: 'Too many attempts.' });
  });

  it('allows five failed logins per address, then asks to wait ten minutes; a success resets the count', async () => {
    const user = await knownUser();
    const address = ip();
    for (let i = 0; i < 4; i++) expect((await loginReq(user, { password: 'wrong-password-0', remoteAddress: address })).statusCode).toBe(422);
    expect((await loginReq(user, { remoteAddress: address, token: await currentCode(t, user.id) })).statusCode).toBe(201);
    for (let i = 0; i < 5; i++) expect((await loginReq(user, { password: 'wrong-password-0', remoteAddress: address })).statusCode).toBe(422);
    const blocked = await loginReq(user, { remoteAddress: address });
    expectGhostError(blocked, {
      status: 429,
      type: 'TooManyRequestsError',
      message: 'Too many login attempts. Please wait 10 minutes before trying again, or reset your password.',
      context: 'Too many login attempts.',
      help: 'Too many login attempts.',
    });
  });

  it('shares the counters between instances on one database', async () => {
    const second = await buildApp({ config: t.config, connection: t.connection });
    try {
      const user = await knownUser();
      const address = ip();
      const attempt = (app: typeof t.app) =>
        app.inject({
          method: 'POST',
          url: `${ADMIN}/session/`,
          remoteAddress: address,
          headers: { origin: ORIGIN },
          payload: { username: user.email, password: 'wrong-password-0' },
        });
      for (const app of [t.app, second, t.app, second, t.app]) expect((await attempt(app)).statusCode).toBe(422);
      expect((await attempt(second)).statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('site settings and failures', () => {
  it('reports 2FA_TOKEN_REQUIRED when the site requires a code on every login, and logout then forgets the device', async () => {
    await writeSettings(t.connection.db, { require_email_mfa: 'true' }, new Date());
    try {
      const user = await knownUser();
      const res = await loginReq(user);
      expect(ghostError(res).code).toBe('2FA_TOKEN_REQUIRED');
      const cookie = cookieOf(res)!;
      expect((await verify(cookie, await currentCode(t, user.id))).statusCode).toBe(200);
      await t.admin.del('/session/', { cookie, origin: ORIGIN });
      expect((await loginReq(user, { cookie })).statusCode).toBe(403);
    } finally {
      await writeSettings(t.connection.db, { require_email_mfa: 'false' }, new Date());
    }
  });

  it('answers EmailError when the code cannot be sent (the cookie is still set)', async () => {
    const failing = await appRefusingMail(t, 'connect ECONNREFUSED');
    try {
      const user = await knownUser();
      const res = await failing.inject({
        method: 'POST',
        url: `${ADMIN}/session/`,
        remoteAddress: ip(),
        headers: { origin: ORIGIN },
        payload: { username: user.email, password: STAFF_PASSWORD },
      });
      expectGhostError(res, {
        status: 500,
        type: 'EmailError',
        message: 'Failed to send email. Please check your site configuration and try again.',
        help: 'Please see https://ghost.org/docs/config/#mail for instructions on configuring email.',
      });
      expect(cookieOf(res)).toBeDefined();
    } finally {
      await failing.close();
    }
  });

  it("keeps the owner's first session working (bootstrap logged in without a code)", async () => {
    expect((await t.admin.get('/users/me/')).json().users[0].email).toBe(OWNER.email);
  });
});
