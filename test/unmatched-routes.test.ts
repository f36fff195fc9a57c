import { describe, expect, it } from 'vitest';
import { ADMIN, CONTENT, ghostError, expectGhostError } from './support.js';
import { useTestSite } from './test-site.js';

/**
 * Routes nobody matched: Ghost's statuses and CORS headers, and for routes Ghost has that this service has not
 * built, a message naming the endpoint. `/tinybird/token/` and `/db/` stand for Ghost endpoints outside this
 * service's plans.
 */
const t = useTestSite();

describe('Ghost endpoints this service has not built', () => {
  it('answer 404 naming the endpoint', async () => {
    const res = await t.app.inject({ url: `${ADMIN}/tinybird/token/`, headers: t.owner });
    expectGhostError(res, {
      status: 404,
      type: 'NotFoundError',
      message: 'GET /ghost/api/admin/tinybird/token/ is not available on this server.',
      context: 'Ghost 5.130 has this endpoint; this server has not built it yet.',
      help: null,
      code: 'ENDPOINT_NOT_BUILT',
    });
  });

  it('answer 406 to an SDK naming another version, without asking it to upgrade', async () => {
    for (const version of ['v5.0', 'v6.0']) {
      const res = await t.app.inject({ method: 'POST', url: `${ADMIN}/db/media/inline`, headers: { 'accept-version': version } });
      expectGhostError(res, {
        status: 406,
        type: 'RequestNotAcceptableError',
        message: 'POST /ghost/api/admin/db/media/inline is not available on this server.',
        help: null,
        code: 'ENDPOINT_NOT_BUILT',
      });
    }
  });

  it('are told apart from paths Ghost does not have, and from methods Ghost does not route', async () => {
    expect(ghostError(await t.app.inject({ url: `${ADMIN}/no-such-thing/` })).code).toBeNull();
    expect(ghostError(await t.app.inject({ method: 'PATCH', url: `${ADMIN}/db/` })).message).toBe(
      'Resource not found: the Admin API has no endpoint PATCH /ghost/api/admin/db/ (that path takes GET, POST, DELETE).',
    );
  });

  it('on a legacy path count as that version when the client names none', async () => {
    const res = await t.app.inject({ url: '/ghost/api/v4/admin/tinybird/token/' });
    expect(res.statusCode).toBe(406);
    expect(res.headers.deprecation).toBe('version="v4"');
    expect(ghostError(res).code).toBe('ENDPOINT_NOT_BUILT');
    const unknown = ghostError(await t.app.inject({ url: '/ghost/api/v4/content/nothing/' }));
    expect(unknown).toMatchObject({ context: 'Provided client accept-version v4.0 is behind current Ghost version v5.130.', code: 'UPDATE_CLIENT' });
  });
});

describe('CORS on every answer', () => {
  const origin = 'https://front.example';

  it('Content API: open to every origin on successes, refusals, unknown routes and preflights', async () => {
    const answers = [
      await t.content.get('/settings/'),
      await t.app.inject({ url: `${CONTENT}/posts/`, headers: { origin } }),
      await t.app.inject({ url: `${CONTENT}/nothing/`, headers: { origin } }),
      await t.app.inject({ url: `${CONTENT}/nothing/`, headers: { origin, 'accept-version': 'v5.0' } }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 403, 404, 406]);
    for (const res of answers) expect(res.headers['access-control-allow-origin']).toBe('*');
    const preflight = await t.app.inject({ method: 'OPTIONS', url: `${CONTENT}/nothing/`, headers: { origin, 'access-control-request-method': 'GET' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-max-age': '86400',
    });
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it("Admin API: only Ghost's allowed origins, reflected, on answers and unknown routes alike", async () => {
    const allowed = 'http://localhost:4200';
    for (const url of [`${ADMIN}/site/`, `${ADMIN}/nothing/`]) {
      const yes = await t.app.inject({ url, headers: { origin: allowed } });
      expect(yes.headers['access-control-allow-origin']).toBe(allowed);
      expect(yes.headers.vary).toContain('Origin');
      const no = await t.app.inject({ url, headers: { origin } });
      expect(no.headers['access-control-allow-origin']).toBeUndefined();
    }
    const preflight = await t.app.inject({ method: 'OPTIONS', url: `${ADMIN}/posts/`, headers: { origin: allowed, 'access-control-request-method': 'PUT' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(allowed);
    const refused = await t.app.inject({ method: 'OPTIONS', url: `${ADMIN}/posts/`, headers: { origin, 'access-control-request-method': 'PUT' } });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });
});
