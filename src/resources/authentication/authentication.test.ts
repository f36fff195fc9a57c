import { describe, expect, it } from 'vitest';
import { ADMIN, ORIGIN, OWNER, ghostError, login, expectGhostError } from '../../../test/support.js';
import { makeStaff, STAFF_PASSWORD } from '../../../test/factories.js';
import { lastMailTo, loginAs } from '../../../test/staff-support.js';
import { useTestSite, withTestSite } from '../../../test/test-site.js';
import type { RoleName } from '../../auth/roles.js';
import { resetToken, urlSafe } from '../../auth/tokens.js';

const t = useTestSite();
let client = 0;
// Each case gets its own client address: the reset limiters count per address.
const ip = () => `10.1.${Math.floor(++client / 250)}.${client % 250}`;

const request = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, remoteAddress = ip()) =>
  t.app.inject({ method, url: `${ADMIN}${url}`, remoteAddress, ...(payload ? { payload } : {}) });
const linkToken = (text: string, kind: 'reset' | 'signup') => new RegExp(`/ghost/${kind}/([A-Za-z0-9_-]+)/`).exec(text)![1]!;

describe('password reset', () => {
  it('mails a link whose token sets a new password once, re-activates the user and returns a sign-in code', async () => {
    const user = await makeStaff(t, 'Author');
    await t.connection.db.updateTable('users').set({ status: 'locked' }).where('id', '=', user.id).execute();
    const asked = await request('POST', '/authentication/password_reset/', { password_reset: [{ email: user.email.toUpperCase() }] });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ password_reset: [{ message: 'Check your email for further instructions.' }] });
    const mail = (await lastMailTo(t, user.email))!;
    expect(mail.subject).toBe('Reset Password');
    const token = linkToken(mail.text, 'reset');

    const done = await request('PUT', '/authentication/password_reset/', {
      password_reset: [{ token, newPassword: 'Fresh-secret-42', ne2Password: 'Fresh-secret-42' }],
    });
    expect(done.statusCode).toBe(200);
    const body = done.json();
    expect(body).toEqual({ password_reset: [{ message: 'Password updated', emailVerificationToken: expect.stringMatching(/^\d{6}$/) }] });
    const row = await t.connection.db.selectFrom('users').select('status').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    expect((await loginAs(t.app, user.email, 'Fresh-secret-42')).length).toBeGreaterThan(10);

    const reused = await request('PUT', '/authentication/password_reset/', {
      password_reset: [{ token, newPassword: 'Fresh-secret-43', ne2Password: 'Fresh-secret-43' }],
    });
    expectGhostError(reused, {
      status: 400,
      type: 'BadRequestError',
      message: 'Cannot reset password.',
      context: 'Password reset link has already been used.',
      help: 'Request a new password reset via the login form.',
    });
  });

  it("answers Ghost's errors for bad requests", async () => {
    const user = await makeStaff(t, 'Author');
    const { db } = t.connection;
    const hash = (await db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow()).password;
    const dbHash = (await db.selectFrom('settings').select('value').where('key', '=', 'db_hash').executeTakeFirstOrThrow()).value!;
    const expired = urlSafe(resetToken(user.email, Date.now() - 1000, dbHash, hash));
    const cases: [string, object | undefined, number, Record<string, unknown>][] = [
      ['POST', { password_reset: [{ email: 'nope' }] }, 400, { type: 'BadRequestError', message: 'The server did not receive a valid email' }],
      ['POST', { password_reset: [{ email: 'nobody@example.com' }] }, 404, { type: 'NotFoundError', message: 'User not found.' }],
      ['PUT', { foo: [] }, 400, { type: 'BadRequestError', message: "No root key ('password_reset') provided." }],
      [
        'PUT',
        { password_reset: [{ token: 'abc' }] },
        422,
        { type: 'ValidationError', message: 'Validation (FieldIsRequired) failed for ["newPassword","ne2Password"]' },
      ],
      [
        'PUT',
        { password_reset: [{ token: 'abc', newPassword: 'Another-secret-1', ne2Password: 'x' }] },
        422,
        { type: 'ValidationError', message: 'Your new passwords do not match' },
      ],
      [
        'PUT',
        { password_reset: [{ token: 'abc', newPassword: 'Another-secret-1', ne2Password: 'Another-secret-1' }] },
        401,
        {
          type: 'UnauthorizedError',
          message: 'Cannot reset password.',
          context: 'Invalid password reset link.',
          help: 'Check if password reset link has been fully copied or request new password reset via the login form.',
        },
      ],
      [
        'PUT',
        { password_reset: [{ token: expired, newPassword: 'Another-secret-1', ne2Password: 'Another-secret-1' }] },
        400,
        {
          type: 'BadRequestError',
          message: 'Cannot reset password.',
          context: 'Password reset link expired.',
          help: 'Request a new password reset via the login form.',
        },
      ],
      [
        'PUT',
        { password_reset: [{ token: urlSafe(resetToken(user.email, Date.now() + 60_000, dbHash, hash)), newPassword: 'short', ne2Password: 'short' }] },
        422,
        { type: 'ValidationError', message: 'Your password must be at least 10 characters long.' },
      ],
    ];
    for (const [method, body, status, error] of cases) {
      const res = await request(method as 'POST' | 'PUT', '/authentication/password_reset/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(ghostError(res)).toMatchObject(error);
    }
  });

  it('limits reset requests: five per address per hour', async () => {
    const address = ip();
    for (let i = 0; i < 5; i++)
      expect((await request('POST', '/authentication/password_reset/', { password_reset: [{ email: `x${i}@example.com` }] }, address)).statusCode).toBe(404);
    const res = await request('POST', '/authentication/password_reset/', { password_reset: [{ email: OWNER.email }] }, address);
    expectGhostError(res, {
      status: 429,
      type: 'TooManyRequestsError',
      message: 'Too many attempts try again in an hour',
      context: 'Only 5 tries per IP address every 3600 seconds.',
      help: 'Forgotten password reset attempt failed',
    });
  });

  it('locks a token after ten wrong uses', async () => {
    const user = await makeStaff(t, 'Author');
    const forged = urlSafe(Buffer.from(`${Date.now() + 60_000}|${user.email}|forged`).toString('base64'));
    const body = { password_reset: [{ token: forged, newPassword: 'Another-secret-1', ne2Password: 'Another-secret-1' }] };
    for (let i = 0; i < 10; i++) expect((await request('PUT', '/authentication/password_reset/', body)).statusCode).toBe(400);
    const res = await request('PUT', '/authentication/password_reset/', body);
    expectGhostError(res, { status: 403, type: 'NoPermissionError', message: 'Token locked' });
  });
});

describe('invitations', () => {
  const inviteToken = async (email: string, role: RoleName = 'Editor') => {
    const res = await t.admin.post('/invites/', { invites: [{ email, role_id: t.roleId(role) }] });
    expect(res.statusCode).toBe(201);
    return linkToken((await lastMailTo(t, email))!.text, 'signup');
  };

  it('tells whether an address has a sent invitation', async () => {
    await inviteToken('pending@example.com');
    expect((await request('GET', '/authentication/invitation/?email=pending@example.com')).json()).toEqual({ invitation: [{ valid: true }] });
    expect((await request('GET', '/authentication/invitation/?email=other@example.com')).json()).toEqual({ invitation: [{ valid: false }] });
    const bad = await request('GET', '/authentication/invitation/?email=nope');
    expectGhostError(bad, { status: 400, type: 'BadRequestError', message: 'The server did not receive a valid email' });
  });

  it('creates the user with the invited role and uses the invitation up', async () => {
    const token = await inviteToken('joiner@example.com', 'Editor');
    const res = await request('POST', '/authentication/invitation/', {
      invitation: [{ token, email: 'joiner@example.com', name: 'Jo Iner', password: 'Joiner-secret-1' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ invitation: [{ message: 'Invitation accepted.' }] });
    const cookie = await loginAs(t.app, 'joiner@example.com', 'Joiner-secret-1');
    const me = (await t.admin.get('/users/me/?include=roles', { cookie, origin: ORIGIN })).json().users[0];
    expect(me).toMatchObject({ name: 'Jo Iner', slug: 'jo', email: 'joiner@example.com', status: 'active', roles: [{ name: 'Editor' }] });
    const again = await request('POST', '/authentication/invitation/', {
      invitation: [{ token, email: 'joiner2@example.com', name: 'X', password: 'Joiner-secret-1' }],
    });
    expectGhostError(again, { status: 404, type: 'NotFoundError', message: 'Invite not found.' });
  });

  it("answers Ghost's errors, and creates nothing on failure", async () => {
    const token = await inviteToken('careful@example.com');
    const cases: [object, number, Record<string, unknown>][] = [
      [{}, 400, { type: 'BadRequestError', message: "No root key ('invitation') provided." }],
      [{ invitation: [{ email: 'a@b.c', password: 'x', name: 'x' }] }, 422, { message: 'No token provided.' }],
      [{ invitation: [{ token, password: 'x', name: 'x' }] }, 422, { message: 'No email provided.' }],
      [{ invitation: [{ token, email: 'careful@example.com', name: 'x' }] }, 422, { message: 'No password provided.' }],
      [{ invitation: [{ token, email: 'careful@example.com', password: 'x' }] }, 422, { message: 'No name provided.' }],
      [
        { invitation: [{ token: 'bm90LWEtdG9rZW4', email: 'careful@example.com', name: 'C', password: 'Careful-secret-1' }] },
        404,
        { type: 'NotFoundError', message: 'Invite not found.' },
      ],
      [
        { invitation: [{ token, email: OWNER.email, name: 'C', password: 'Careful-secret-1' }] },
        422,
        {
          type: 'ValidationError',
          message: 'Could not create an account, email is already in use.',
          context: 'Attempting to create an account with existing email address.',
          help: 'Use different email address to register your account.',
        },
      ],
      [
        { invitation: [{ token, email: 'careful@example.com', name: 'C', password: 'short' }] },
        422,
        { type: 'ValidationError', message: 'Your password must be at least 10 characters long.' },
      ],
    ];
    for (const [body, status, error] of cases) {
      const res = await request('POST', '/authentication/invitation/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(ghostError(res)).toMatchObject(error);
    }
    expect(await t.connection.db.selectFrom('users').select('id').where('email', '=', 'careful@example.com').execute()).toEqual([]);
    await t.connection.db
      .updateTable('invites')
      .set({ expires: Date.now() - 1 })
      .where('email', '=', 'careful@example.com')
      .execute();
    const expired = await request('POST', '/authentication/invitation/', {
      invitation: [{ token, email: 'careful@example.com', name: 'C', password: 'Careful-secret-1' }],
    });
    expectGhostError(expired, { status: 404, type: 'NotFoundError', message: 'Invite is expired.' });
  });
});

describe('POST /authentication/global_password_reset/', () => {
  it('mails everyone a reset link, locks every account and ends every session', async () => {
    await withTestSite(async (t2) => {
      const author = await makeStaff(t2, 'Author');
      const refused = await t2.admin.post('/authentication/global_password_reset/', undefined, await t2.session(author));
      expectGhostError(refused, {
        status: 403,
        type: 'NoPermissionError',
        message: 'You do not have permission to resetAllPasswords authentication',
        context: null,
      });

      const res = await t2.admin.post('/authentication/global_password_reset/');
      expect(res.statusCode).toBe(204);
      expect(await t2.connection.db.selectFrom('sessions').select('id').execute()).toEqual([]);
      const statuses = await t2.connection.db.selectFrom('users').select('status').execute();
      expect(statuses.every((u) => u.status === 'locked')).toBe(true);
      expect((await lastMailTo(t2, author.email))!.subject).toBe('Reset Password');
      expect((await lastMailTo(t2, OWNER.email))!.subject).toBe('Reset Password');
      await expect(login(t2.app)).rejects.toThrow(/401/);
      const locked = await t2.app.inject({
        method: 'POST',
        url: `${ADMIN}/session/`,
        headers: { origin: ORIGIN },
        payload: { username: author.email, password: STAFF_PASSWORD },
      });
      expect(ghostError(locked)).toMatchObject({
        type: 'PasswordResetRequiredError',
        message: 'For security, you need to create a new password. An email has been sent to you with instructions!',
      });
    });
  });
});
