import { describe, expect, it } from 'vitest';
import { OWNER, adminAuth, createIntegration, ghostError, login, sessionHeaders, expectGhostError } from '../../../test/support.js';
import { NOBODY, useTestSite } from '../../../test/test-site.js';

const t = useTestSite({ setup: 'none' });

const status = async () => (await t.admin.get('/authentication/setup/', NOBODY)).json();
const postSetup = (payload: unknown) => t.admin.post('/authentication/setup/', payload, NOBODY);

describe('first-run setup', () => {
  it('reports a fresh site as not set up', async () => {
    expect(await status()).toEqual({ setup: [{ status: false }] });
  });

  it('refuses a body without the setup root key (not rewritten)', async () => {
    for (const payload of [{}, { setup: [] }, { setup: [{}] }, { setup: {} }]) {
      const res = await postSetup(payload);
      expectGhostError(res, { status: 400, type: 'BadRequestError', message: "No root key ('setup') provided.", context: null });
    }
  });

  it('validates the owner as Ghost does, leaving the site not set up', async () => {
    const cases: [object, string, string | null][] = [
      [{ ...OWNER, password: 'short' }, 'Your password must be at least 10 characters long.', null],
      [{ ...OWNER, password: undefined }, 'Your password must be at least 10 characters long.', null],
      [{ ...OWNER, password: 'aaaaaaaaaaaaaaaab' }, 'Sorry, you cannot use an insecure password.', null],
      [{ ...OWNER, password: 'my-password-123' }, 'Sorry, you cannot use an insecure password.', null],
      [{ ...OWNER, password: '1234567890' }, 'Sorry, you cannot use an insecure password.', null],
      [{ ...OWNER, password: OWNER.email }, 'Sorry, you cannot use an insecure password.', null],
      [{ ...OWNER, name: '' }, 'Value in [users.name] cannot be blank.', null],
      [{ ...OWNER, email: undefined }, 'Value in [users.email] cannot be blank.', 'users.email'],
      [{ ...OWNER, email: 'not-an-email' }, 'Validation (isEmail) failed for email', 'users.email'],
    ];
    for (const [input, message, context] of cases) {
      const res = await postSetup({ setup: [input] });
      expect(res.statusCode, message).toBe(422);
      expect(ghostError(res)).toMatchObject({ type: 'ValidationError', message, context });
    }
    expect(await status()).toEqual({ setup: [{ status: false }] });
  });

  it('creates the owner with 201, sets the title and invalidates the cache', async () => {
    const res = await postSetup({ setup: [{ ...OWNER, description: 'About the site' }] });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    const [user] = res.json().users;
    expect(user).toMatchObject({ id: '1', name: OWNER.name, slug: 'owner', email: OWNER.email, status: 'active', url: 'http://127.0.0.1:2368/404/' });
    expect(user).not.toHaveProperty('password');
    expect(await status()).toEqual({ setup: [{ status: true }] });
    const site = (await t.admin.get('/site/', NOBODY)).json().site;
    expect(site).toMatchObject({ title: OWNER.blogTitle, description: 'About the site' });
  });

  it('refuses to run twice', async () => {
    const res = await postSetup({ setup: [{ ...OWNER, email: 'second@example.com' }] });
    expectGhostError(res, { status: 403, type: 'NoPermissionError', message: 'Setup has already been completed.' });
  });

  it('lets the owner update it with PUT', async () => {
    const cookie = await login(t.app);
    const res = await t.admin.put('/authentication/setup/', { setup: [{ ...OWNER, name: 'Renamed Owner', blogTitle: 'New Title' }] }, sessionHeaders(cookie));
    expect(res.statusCode).toBe(200);
    expect(res.json().users[0].name).toBe('Renamed Owner');
    expect((await t.admin.get('/site/', NOBODY)).json().site.title).toBe('New Title');
  });

  it('refuses PUT without authentication and from integrations', async () => {
    const anonymous = await t.admin.put('/authentication/setup/', { setup: [OWNER] }, NOBODY);
    expect(anonymous.statusCode).toBe(403);
    expect(ghostError(anonymous).message).toBe('Authorization failed');
    const { adminKey } = await createIntegration(t.app, await login(t.app));
    const integration = await t.admin.put('/authentication/setup/', { setup: [OWNER] }, adminAuth(adminKey));
    expect(integration.statusCode).toBe(501);
  });
});
