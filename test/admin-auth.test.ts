import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signAdminToken } from '../src/auth/admin-jwt.js';
import { ADMIN, ghostError } from './support.js';
import { useTestSite } from './test-site.js';

const t = useTestSite();
const now = () => Math.floor(Date.now() / 1000);

/** A hand-made token: header and payload exactly as given, signed with `secretHex`. */
function rawToken(header: object, payload: object, secretHex: string): string {
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${createHmac('sha256', Buffer.from(secretHex, 'hex')).update(input).digest('base64url')}`;
}

const site = (authorization: string) => t.app.inject({ url: `${ADMIN}/site/`, headers: { authorization } });
const integrations = (authorization: string) => t.app.inject({ url: `${ADMIN}/integrations/`, headers: { authorization } });

function expectError(res: Awaited<ReturnType<typeof site>>, status: number, type: string, message: string, code: string | null) {
  expect(res.statusCode).toBe(status);
  const error = ghostError(res);
  expect(error).toMatchObject({ type, message, code });
}

describe('admin API key tokens', () => {
  it('accepts the SDK token with the Ghost and the Service scheme', async () => {
    for (const scheme of ['Ghost', 'Service', 'ghost']) {
      const res = await t.app.inject({ url: `${ADMIN}/integrations/`, headers: { authorization: `${scheme} ${signAdminToken(t.keys.adminKey)}` } });
      // integrations are not on the integration allow-list: authenticated, then refused with 501
      expect(res.statusCode).toBe(501);
    }
  });

  it('refuses a request with no credentials with 403 Authorization failed', async () => {
    const res = await t.app.inject({ url: `${ADMIN}/integrations/` });
    expectError(res, 403, 'NoPermissionError', 'Authorization failed', null);
    expect(ghostError(res).context).toBe(
      'Unable to determine the authenticated user or integration. Check that cookies are being passed through if using session authentication.',
    );
  });

  it('refuses a header in another format', async () => {
    for (const header of ['Bearer abc', 'Ghost', 'Ghost ', 'Basic dXNlcjpwYXNz']) {
      expectError(await integrations(header), 401, 'UnauthorizedError', 'Authorization header format is "Authorization: Ghost [token]"', 'INVALID_AUTH_HEADER');
    }
  });

  it('refuses a token that is not a JWT', async () => {
    expectError(await integrations('Ghost not-a-token'), 400, 'BadRequestError', 'Invalid token', 'INVALID_JWT');
    expectError(await integrations('Ghost a.b.c'), 400, 'BadRequestError', 'Invalid token', 'INVALID_JWT');
  });

  it('refuses a token without kid', async () => {
    expectError(
      await integrations(`Ghost ${signAdminToken(t.keys.adminKey, { kid: null })}`),
      400,
      'BadRequestError',
      'Admin API kid missing.',
      'MISSING_ADMIN_API_KID',
    );
  });

  it('refuses an unknown kid', async () => {
    const secret = t.keys.adminKey.split(':')[1];
    expectError(
      await integrations(`Ghost ${signAdminToken(`0123456789abcdef01234567:${secret}`)}`),
      401,
      'UnauthorizedError',
      'Unknown Admin API Key',
      'UNKNOWN_ADMIN_API_KEY',
    );
  });

  it('refuses a content key used as kid', async () => {
    const integration = (await t.admin.get(`/integrations/${t.keys.integrationId}/?include=api_keys`)).json().integrations[0];
    const contentKey = integration.api_keys.find((k: { type: string }) => k.type === 'content');
    const token = rawToken({ alg: 'HS256', typ: 'JWT', kid: contentKey.id }, { iat: now(), exp: now() + 300, aud: '/admin/' }, t.keys.adminKey.split(':')[1]!);
    expectError(await integrations(`Ghost ${token}`), 401, 'UnauthorizedError', 'Invalid API Key type', 'INVALID_API_KEY_TYPE');
  });

  it('refuses a bad signature', async () => {
    const [id] = t.keys.adminKey.split(':');
    const token = signAdminToken(`${id}:${'ab'.repeat(32)}`);
    expectError(await integrations(`Ghost ${token}`), 401, 'UnauthorizedError', 'Invalid token: invalid signature', 'INVALID_JWT');
  });

  it('refuses algorithms other than HS256', async () => {
    const [id, secret] = t.keys.adminKey.split(':');
    const token = rawToken({ alg: 'HS512', typ: 'JWT', kid: id }, { iat: now(), exp: now() + 300, aud: '/admin/' }, secret!);
    expectError(await integrations(`Ghost ${token}`), 401, 'UnauthorizedError', 'Invalid token: invalid algorithm', 'INVALID_JWT');
    const none = rawToken({ alg: 'none', typ: 'JWT', kid: id }, { iat: now(), aud: '/admin/' }, secret!).replace(/\.[^.]+$/, '.');
    expectError(await integrations(`Ghost ${none}`), 401, 'UnauthorizedError', 'Invalid token: invalid algorithm', 'INVALID_JWT');
  });

  it('refuses an expired token', async () => {
    const token = signAdminToken(t.keys.adminKey, { iat: now() - 120, exp: now() - 60 });
    expectError(await integrations(`Ghost ${token}`), 401, 'UnauthorizedError', 'Invalid token: jwt expired', 'INVALID_JWT');
  });

  it('refuses a token used more than 5 minutes after iat, whatever exp says', async () => {
    const token = signAdminToken(t.keys.adminKey, { iat: now() - 301, exp: now() + 3600 });
    expectError(await integrations(`Ghost ${token}`), 401, 'UnauthorizedError', 'Invalid token: maxAge exceeded', 'INVALID_JWT');
    // within the 5 minutes a long exp is fine, as in Ghost
    const fresh = signAdminToken(t.keys.adminKey, { iat: now() - 200, exp: now() + 3600 });
    expect((await integrations(`Ghost ${fresh}`)).statusCode).toBe(501);
  });

  it('refuses a token without iat', async () => {
    const [id, secret] = t.keys.adminKey.split(':');
    const token = rawToken({ alg: 'HS256', typ: 'JWT', kid: id }, { exp: now() + 300, aud: '/admin/' }, secret!);
    expectError(await integrations(`Ghost ${token}`), 401, 'UnauthorizedError', 'Invalid token: iat required when maxAge is specified', 'INVALID_JWT');
  });

  it('refuses iat in milliseconds (beyond Ghost: it would never expire)', async () => {
    const token = signAdminToken(t.keys.adminKey, { iat: Date.now(), exp: Date.now() + 300_000 });
    expectError(await integrations(`Ghost ${token}`), 401, 'UnauthorizedError', 'Invalid token: jwt issued in the future', 'INVALID_JWT');
  });

  it('refuses a token not yet valid', async () => {
    const [id, secret] = t.keys.adminKey.split(':');
    const token = rawToken({ alg: 'HS256', typ: 'JWT', kid: id }, { iat: now(), nbf: now() + 60, aud: '/admin/' }, secret!);
    expectError(await integrations(`Ghost ${token}`), 401, 'UnauthorizedError', 'Invalid token: jwt not active', 'INVALID_JWT');
  });

  it('checks the audience with Ghost regex', async () => {
    for (const aud of ['/content/', 'admin/x', '', 42]) {
      const token = signAdminToken(t.keys.adminKey, { aud });
      expectError(
        await integrations(`Ghost ${token}`),
        401,
        'UnauthorizedError',
        'Invalid token: jwt audience invalid. expected: /\\/?admin\\/?$/',
        'INVALID_JWT',
      );
    }
    for (const aud of ['/admin/', 'admin', '/admin', 'admin/', '/v5/admin/', ['/x/', '/admin/']]) {
      expect((await integrations(`Ghost ${signAdminToken(t.keys.adminKey, { aud })}`)).statusCode).toBe(501);
    }
  });

  it('lets integration tokens reach allow-listed routes only', async () => {
    expect((await site(`Ghost ${signAdminToken(t.keys.adminKey)}`)).statusCode).toBe(200);
    const res = await integrations(`Ghost ${signAdminToken(t.keys.adminKey)}`);
    expectError(res, 501, 'NotImplementedError', 'The server does not support the functionality required to fulfill the request.', null);
    const session = await t.app.inject({ url: `${ADMIN}/session/`, headers: { authorization: `Ghost ${signAdminToken(t.keys.adminKey)}` } });
    expect(session.statusCode).toBe(501);
  });

  it('stops accepting a key once it is refreshed', async () => {
    const [keyId] = t.keys.adminKey.split(':');
    const refreshed = await t.admin.post(`/integrations/${t.keys.integrationId}/api_key/${keyId}/refresh/`, { integrations: [{ id: t.keys.integrationId }] });
    expect(refreshed.statusCode).toBe(200);
    const newKey = refreshed.json().integrations[0].api_keys.find((k: { type: string }) => k.type === 'admin').secret;
    expect(newKey).not.toBe(t.keys.adminKey);
    expectError(await integrations(`Ghost ${signAdminToken(t.keys.adminKey)}`), 401, 'UnauthorizedError', 'Invalid token: invalid signature', 'INVALID_JWT');
    expect((await site(`Ghost ${signAdminToken(newKey)}`)).statusCode).toBe(200);
    t.keys.adminKey = newKey;
  });
});

describe('legacy versioned paths', () => {
  it('serve /ghost/api/v4/admin/ from the current routes with a deprecation notice and the versioned audience', async () => {
    const ok = await t.app.inject({
      url: '/ghost/api/v4/admin/users/?limit=1',
      headers: { authorization: `Ghost ${signAdminToken(t.keys.adminKey, { aud: '/v4/admin/' })}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers.deprecation).toBe('version="v4"');
    expect(ok.headers.link).toBe('<http://localhost:80/ghost/api/admin/users/?limit=1>; rel="latest-version"');
    const wrongAudience = await t.app.inject({ url: '/ghost/api/v4/admin/users/', headers: { authorization: `Ghost ${signAdminToken(t.keys.adminKey)}` } });
    expectError(wrongAudience, 401, 'UnauthorizedError', 'Invalid token: jwt audience invalid. expected: /\\/?v4\\/admin\\/?$/', 'INVALID_JWT');
  });

  it('serve canary and v3 Content API paths, canary reported as v4', async () => {
    const canary = await t.app.inject({ url: `/ghost/api/canary/content/posts/?key=${t.keys.contentKey}` });
    expect(canary.statusCode).toBe(200);
    expect(canary.headers.deprecation).toBe('version="v4"');
    const v3 = await t.app.inject({ url: `/ghost/api/v3/content/tags/?key=${t.keys.contentKey}` });
    expect(v3.statusCode).toBe(200);
    expect(v3.headers.deprecation).toBe('version="v3"');
    expect((await t.app.inject({ url: `/ghost/api/v9/content/tags/?key=${t.keys.contentKey}` })).statusCode).toBe(404);
  });
});
