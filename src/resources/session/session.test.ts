import { describe, expect, it } from 'vitest';
import { ADMIN, ORIGIN, OWNER, ghostError, login, expectGhostError } from '../../../test/support.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite({ setup: 'owner' });

// Failed logins count against the client's address (five, then 429): each failing case uses its own.
let client = 0;
const createSession = (payload: object, headers: Record<string, string> = { origin: ORIGIN }) =>
  t.app.inject({ method: 'POST', url: `${ADMIN}/session/`, headers, payload, remoteAddress: `10.0.0.${++client}` });

describe('POST /session/', () => {
  it('answers 201 Created in plain text and sets the session cookie', async () => {
    const res = await createSession({ username: OWNER.email, password: OWNER.password });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('Created');
    const header = String(res.headers['set-cookie']);
    expect(header).toMatch(/^service-admin-api-session=[\w-]{40,};/);
    expect(header).toContain('Path=/ghost');
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
    expect(header).not.toContain('Secure');
    const expires = new Date(/Expires=([^;]+)/.exec(header)![1]!).getTime();
    expect(expires - Date.now()).toBeGreaterThan(170 * 24 * 3600 * 1000);
  });

  it('matches the e-mail case-insensitively', async () => {
    expect((await createSession({ username: OWNER.email.toUpperCase(), password: OWNER.password })).statusCode).toBe(201);
  });

  it('refuses missing credentials with 401 Access Denied.', async () => {
    for (const payload of [{}, { username: OWNER.email }, { password: OWNER.password }, { username: '', password: '' }]) {
      const res = await createSession(payload);
      expectGhostError(res, { status: 401, type: 'UnauthorizedError', message: 'Access Denied.' });
    }
  });

  it('answers 404 for an unknown e-mail', async () => {
    const res = await createSession({ username: 'nobody@example.com', password: 'whatever-it-is' });
    expectGhostError(res, { status: 404, type: 'NotFoundError', message: 'There is no user with that email address.', context: null });
  });

  it('answers 422 PASSWORD_INCORRECT for a wrong password and sets no cookie', async () => {
    const res = await createSession({ username: OWNER.email, password: 'not-the-password' });
    expectGhostError(res, {
      status: 422,
      type: 'ValidationError',
      message: 'Your password is incorrect.',
      context: 'Your password is incorrect.',
      help: 'Visit and save your profile after logging in to check for problems.',
      code: 'PASSWORD_INCORRECT',
    });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a login whose origin cannot be determined', async () => {
    for (const headers of [{ origin: 'null' }, { referer: 'not a url' }] as Record<string, string>[]) {
      const res = await createSession({ username: OWNER.email, password: OWNER.password }, headers);
      expectGhostError(res, {
        status: 400,
        type: 'BadRequestError',
        message: 'Could not determine origin of request. Please ensure an Origin or Referrer header is present.',
      });
    }
  });
});

describe('cookie-authenticated requests', () => {
  it('reads the session user as a bare object without the password', async () => {
    const cookie = await login(t.app);
    const res = await t.admin.get('/session/', { cookie, origin: ORIGIN });
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({
      id: '1',
      name: OWNER.name,
      slug: 'owner',
      email: OWNER.email,
      status: 'active',
      created_by: '1',
      locale: null,
      visibility: 'public',
    });
    expect(user).not.toHaveProperty('password');
    expect(user.last_seen).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
  });

  it('refuses the cookie from a foreign Origin (CSRF) with 400', async () => {
    const cookie = await login(t.app);
    const res = await t.admin.get('/session/', { cookie, origin: 'http://evil.example' });
    expectGhostError(res, {
      status: 400,
      type: 'BadRequestError',
      message: `Request made from incorrect origin. Expected '${ORIGIN}' received 'http://evil.example'.`,
    });
  });

  it('takes the origin from the Referer when there is no Origin header', async () => {
    const cookie = await login(t.app);
    expect((await t.app.inject({ url: `${ADMIN}/session/`, headers: { cookie, referer: `${ORIGIN}/ghost/#/posts` } })).statusCode).toBe(200);
    const res = await t.admin.get('/session/', { cookie, referer: 'https://evil.example/page' });
    expect(res.statusCode).toBe(400);
    expect(ghostError(res).message).toBe(`Request made from incorrect origin. Expected '${ORIGIN}' received 'https://evil.example'.`);
  });

  it('falls back to the site origin when neither header is sent', async () => {
    const fromSite = await login(t.app);
    expect((await t.admin.get('/session/', { cookie: fromSite })).statusCode).toBe(200);
    const res = await createSession({ username: OWNER.email, password: OWNER.password }, { origin: 'http://localhost:9999' });
    const cookie = `service-admin-api-session=${res.cookies[0]!.value}`;
    const other = await t.admin.get('/session/', { cookie });
    expect(other.statusCode).toBe(400);
    expect(ghostError(other).message).toBe(`Request made from incorrect origin. Expected 'http://localhost:9999' received '${ORIGIN}'.`);
  });

  it('treats an unknown cookie as no authentication', async () => {
    const res = await t.admin.get('/session/', { cookie: 'service-admin-api-session=forged', origin: ORIGIN });
    expectGhostError(res, { status: 403, type: 'NoPermissionError', message: 'Authorization failed' });
  });

  it('logs out with 204; the cookie then authenticates nothing', async () => {
    const cookie = await login(t.app);
    const out = await t.admin.del('/session/', { cookie, origin: ORIGIN });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    const after = await t.admin.get('/session/', { cookie, origin: ORIGIN });
    expect(after.statusCode).toBe(403);
  });

  it('requires authentication to read or end a session', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `${ADMIN}/session/` });
      expect(res.statusCode).toBe(403);
      expect(ghostError(res).message).toBe('Authorization failed');
    }
  });
});
