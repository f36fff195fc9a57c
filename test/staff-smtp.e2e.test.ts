import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, ORIGIN, cookieOf, expectGhostError } from './support.js';
import { MailSink, type ReceivedMail } from './mail-support.js';
import { useTestSite } from './test-site.js';

/**
 * End to end over real SMTP: a mail server on loopback receives what the app sends. Invite → accept →
 * login from a new device → the code arrives by mail → verify → use the session; then a wrong code,
 * an expired code and too many attempts.
 */
const sink = new MailSink();
const nextMailTo = (email: string, after: number) => sink.next(email, after, 50);

beforeAll(() => sink.start());
afterAll(() => sink.stop());
// Registered after the mail server's hooks: the site starts once the server listens and closes before it.
const t = useTestSite({
  settings: () => ({
    STAFF_DEVICE_VERIFICATION: 'true',
    MAIL_SMTP_URL: sink.url,
    MAIL_FROM: 'staff@quire.test',
  }),
});
afterEach(() => {
  vi.useRealTimers();
});

const codeIn = (mail: ReceivedMail) => /^(\d{6}) is your Ghost sign in verification code$/.exec(mail.subject)![1]!;

async function invitedEditor(email: string, password: string) {
  const before = sink.received.length;
  const invited = await t.admin.post('/invites/', { invites: [{ email, role_id: t.roleId('Editor') }] });
  expect(invited.statusCode).toBe(201);
  const mail = await nextMailTo(email, before);
  expect(mail.subject).toBe('Owner Person has invited you to join Test Site');
  const token = /\/ghost\/signup\/([A-Za-z0-9_-]+)\//.exec(mail.text)![1];
  const accepted = await t.app.inject({
    method: 'POST',
    url: `${ADMIN}/authentication/invitation/`,
    payload: { invitation: [{ token, email, name: 'New Editor', password }] },
  });
  expect(accepted.statusCode).toBe(200);
  // The very first login is let through (Ghost: the invitation proved the address).
  const first = await t.app.inject({ method: 'POST', url: `${ADMIN}/session/`, headers: { origin: ORIGIN }, payload: { username: email, password } });
  expect(first.statusCode).toBe(201);
}

/** A login from a browser without a cookie: 403 Needs2FAError, and the code that arrived by SMTP. */
async function newDevice(email: string, password: string, remoteAddress: string) {
  const before = sink.received.length;
  const res = await t.app.inject({
    method: 'POST',
    url: `${ADMIN}/session/`,
    remoteAddress,
    headers: { origin: ORIGIN, 'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15' },
    payload: { username: email, password },
  });
  expectGhostError(res, { status: 403, type: 'Needs2FAError', message: 'User must verify session to login.', code: '2FA_NEW_DEVICE_DETECTED' });
  const mail = await nextMailTo(email, before);
  return { cookie: cookieOf(res)!, code: codeIn(mail), mail };
}

const verify = (cookie: string, token: string, remoteAddress: string) =>
  t.app.inject({ method: 'PUT', url: `${ADMIN}/session/verify/`, remoteAddress, headers: { cookie, origin: ORIGIN }, payload: { token } });
const me = (cookie: string) => t.admin.get('/users/me/?include=roles', { cookie, origin: ORIGIN });

describe('invite → accept → new device → code by SMTP → verify', () => {
  it('signs the invited editor in with the mailed code', async () => {
    await invitedEditor('editor.one@example.com', 'Editor-secret-1');
    const { cookie, code, mail } = await newDevice('editor.one@example.com', 'Editor-secret-1', '10.3.0.1');
    expect(mail.text).toContain(code);
    expect(mail.text).toContain('Device: Safari, Mac OS');
    expect((await me(cookie)).statusCode).toBe(403);
    const ok = await verify(cookie, code, '10.3.0.1');
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('OK');
    const res = await me(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().users[0]).toMatchObject({ email: 'editor.one@example.com', roles: [{ name: 'Editor' }] });
  });

  it('refuses a wrong code with 401 and keeps the session unverified', async () => {
    await invitedEditor('editor.two@example.com', 'Editor-secret-2');
    const { cookie, code } = await newDevice('editor.two@example.com', 'Editor-secret-2', '10.3.0.2');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const res = await verify(cookie, wrong, '10.3.0.2');
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body).errors[0]).toMatchObject({
      type: 'UnauthorizedError',
      message: 'The verification code is incorrect, expired or already used.',
    });
    expect((await me(cookie)).statusCode).toBe(403);
    expect((await verify(cookie, code, '10.3.0.2')).statusCode).toBe(200);
  });

  it('refuses a code that has expired', async () => {
    await invitedEditor('editor.three@example.com', 'Editor-secret-3');
    const { cookie, code } = await newDevice('editor.three@example.com', 'Editor-secret-3', '10.3.0.3');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 12 * 60_000);
    expect((await verify(cookie, code, '10.3.0.3')).statusCode).toBe(401);
    vi.useRealTimers();
    expect((await me(cookie)).statusCode).toBe(403);
    // A fresh code, asked for with POST /session/verify/, works.
    const before = sink.received.length;
    expect(
      (await t.app.inject({ method: 'POST', url: `${ADMIN}/session/verify/`, remoteAddress: '10.3.0.3', headers: { cookie, origin: ORIGIN }, payload: {} }))
        .statusCode,
    ).toBe(200);
    const fresh = codeIn(await nextMailTo('editor.three@example.com', before));
    expect((await verify(cookie, fresh, '10.3.0.3')).statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('blocks after five wrong codes, even the right one', async () => {
    await invitedEditor('editor.four@example.com', 'Editor-secret-4');
    const { cookie, code } = await newDevice('editor.four@example.com', 'Editor-secret-4', '10.3.0.4');
    for (let i = 0; i < 5; i++) expect((await verify(cookie, code === '999999' ? '888888' : '999999', '10.3.0.4')).statusCode).toBe(401);
    const blocked = await verify(cookie, code, '10.3.0.4');
    expectGhostError(blocked, { status: 429, type: 'TooManyRequestsError', message: 'Too many attempts.' });
    expect((await me(cookie)).statusCode).toBe(403);
  });
});
