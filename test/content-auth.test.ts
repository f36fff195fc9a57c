import { expect, it } from 'vitest';
import { CONTENT, ghostError, expectGhostError } from './support.js';
import { useTestSite } from './test-site.js';

const t = useTestSite();

const get = (query: string) => t.app.inject({ url: `${CONTENT}/posts/${query}` });

it('serves the Content API with a content key, CORS open to every origin', async () => {
  const res = await t.app.inject({ url: `${CONTENT}/posts/?key=${t.keys.contentKey}`, headers: { origin: 'https://front.example' } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['cache-control']).toBe('public, max-age=0');
});

it('refuses a request without a key with 403', async () => {
  for (const query of ['', '?key=']) {
    const res = await get(query);
    expectGhostError(res, {
      status: 403,
      type: 'NoPermissionError',
      message: 'Authorization failed',
      context:
        'Unable to determine the authenticated member or integration. Check the supplied Content API Key and ensure cookies are being passed through if member auth is failing.',
    });
  }
});

it('refuses an unknown key with 401 UNKNOWN_CONTENT_API_KEY, never cacheable', async () => {
  const res = await get('?key=0123456789abcdef0123456789');
  expect(res.statusCode).toBe(401);
  expect(res.headers['cache-control']).toBe('no-cache, private, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0');
  expect(ghostError(res)).toMatchObject({ type: 'UnauthorizedError', message: 'Unknown Content API Key', code: 'UNKNOWN_CONTENT_API_KEY' });
});

it('refuses an admin key secret with 401 INVALID_API_KEY_TYPE', async () => {
  const res = await get(`?key=${t.keys.adminKey.split(':')[1]}`);
  expectGhostError(res, { status: 401, type: 'UnauthorizedError', message: 'Invalid API Key type', code: 'INVALID_API_KEY_TYPE' });
});

it('refuses a key given twice with 400 INVALID_REQUEST', async () => {
  const res = await get(`?key=${t.keys.contentKey}&key=${t.keys.contentKey}`);
  expectGhostError(res, { status: 400, type: 'BadRequestError', message: 'Invalid Request', code: 'INVALID_REQUEST' });
});

it('answers a preflight without a key', async () => {
  const res = await t.app.inject({
    method: 'OPTIONS',
    url: `${CONTENT}/posts/`,
    headers: { origin: 'https://front.example', 'access-control-request-method': 'GET' },
  });
  expect(res.statusCode).toBe(204);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['access-control-max-age']).toBe('86400');
});

it("marks a Content API miss with Ghost's 404 cache header", async () => {
  const res = await t.app.inject({ url: `${CONTENT}/posts/0123456789abcdef01234567/?key=${t.keys.contentKey}` });
  expect(res.statusCode).toBe(404);
  expect(res.headers['cache-control']).toBe('no-cache, max-age=0, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0');
});
