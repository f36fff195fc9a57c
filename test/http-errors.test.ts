import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { parseConfig } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { ADMIN, CONTENT, createTestDatabase, ghostError, expectGhostError, logSink } from './support.js';
import { useTestSite } from './test-site.js';

const t = useTestSite();

describe('error body', () => {
  it('has exactly Ghost nine keys, a v1 UUID id and Ghost headers', async () => {
    const res = await t.app.inject({ url: `${ADMIN}/no-such-thing/` });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-version']).toBe('v5.130');
    expect(res.headers.vary).toContain('Accept-Version');
    const body = res.json();
    expect(Object.keys(body)).toEqual(['errors']);
    expect(body.errors).toHaveLength(1);
    const error = body.errors[0];
    expect(Object.keys(error)).toEqual(['message', 'context', 'type', 'details', 'property', 'help', 'code', 'id', 'ghostErrorCode']);
    expect(error).toMatchObject({
      message: 'Resource not found: the Admin API has no endpoint GET /ghost/api/admin/no-such-thing/.',
      context: null,
      type: 'NotFoundError',
      details: null,
      property: null,
      help: null,
      code: null,
      ghostErrorCode: null,
    });
    expect(error.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const again = ghostError(await t.app.inject({ url: `${ADMIN}/no-such-thing/` }));
    expect(again.id).not.toBe(error.id);
  });

  it('answers unknown Content API routes with the same 404', async () => {
    const res = await t.app.inject({ url: `${CONTENT}/nothing-here/` });
    expect(res.statusCode).toBe(404);
    expect(ghostError(res)).toMatchObject({
      type: 'NotFoundError',
      message: 'Resource not found: the Content API has no endpoint GET /ghost/api/content/nothing-here/.',
    });
  });

  it('rewrites controller errors and keeps the original as context', async () => {
    const res = await t.app.inject({ url: `${ADMIN}/integrations/0123456789abcdef01234567/`, headers: t.owner });
    expect(ghostError(res)).toMatchObject({ message: 'Resource not found error, cannot read integration.', context: 'Resource could not be found.' });
  });
});

describe('Accept-Version on unmatched routes', () => {
  const get = (version: string) => t.app.inject({ url: `${ADMIN}/no-such-thing/`, headers: { 'accept-version': version } });

  it('says when the client is ahead of the server', async () => {
    const res = await get('v6.0');
    expectGhostError(res, {
      status: 406,
      type: 'RequestNotAcceptableError',
      message: 'Request could not be served, the endpoint was not found: the Admin API has no endpoint GET /ghost/api/admin/no-such-thing/.',
      context: 'Provided client accept-version v6.0 is ahead of current Ghost version v5.130.',
      help: 'Try upgrading your Ghost install.',
      code: 'UPDATE_GHOST',
    });
  });

  it('says when the client is behind the server, naming the unknown endpoint instead of asking it to upgrade', async () => {
    const res = await get('v5.0');
    expect(res.statusCode).toBe(406);
    expect(ghostError(res)).toMatchObject({
      type: 'RequestNotAcceptableError',
      message: 'Request could not be served, the endpoint was not found: the Admin API has no endpoint GET /ghost/api/admin/no-such-thing/.',
      context: 'Provided client accept-version v5.0 is behind current Ghost version v5.130.',
      help: 'Check the method and path.',
      code: 'UPDATE_CLIENT',
    });
  });

  it('names the methods a known path takes when another one was sent', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: `${ADMIN}/posts/`, headers: { 'accept-version': 'v5.0' } });
    expect(res.statusCode).toBe(406);
    expect(ghostError(res).message).toBe(
      'Request could not be served, the endpoint was not found: the Admin API has no endpoint PATCH /ghost/api/admin/posts/ (that path takes GET, POST, DELETE).',
    );
  });

  it('refuses an unparsable version and ignores it on matched routes', async () => {
    const res = await get('banana');
    expectGhostError(res, { status: 400, type: 'BadRequestError', message: 'Requested version is not supported.' });
    expect((await t.app.inject({ url: `${ADMIN}/site/`, headers: { 'accept-version': 'v5.0' } })).statusCode).toBe(200);
    expect((await get('v5.130')).statusCode).toBe(404);
  });
});

describe('X-Ghost-Version', () => {
  const site = (version: string) => t.app.inject({ url: `${ADMIN}/site/`, headers: { 'x-ghost-version': version } });

  it('accepts clients on the same or an earlier minor version', async () => {
    for (const version of ['5.130', '5.0', '5']) expect((await site(version)).statusCode).toBe(200);
  });

  it('refuses a later minor or another major with 400 VersionMismatchError', async () => {
    for (const version of ['5.131', '6.0', '4.48']) {
      const res = await site(version);
      expectGhostError(res, { status: 400, type: 'VersionMismatchError', message: `Client request for ${version} does not match server version 5.130.6.` });
    }
  });

  it('refuses an unreadable version with 400', async () => {
    const res = await site('banana');
    expectGhostError(res, { status: 400, type: 'BadRequestError', message: 'Client request for banana is invalid.' });
  });
});

describe('pretty URLs', () => {
  it('redirects GET without a trailing slash with 301, keeping the query', async () => {
    const res = await t.app.inject({ url: `${ADMIN}/integrations?limit=1` });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`${ADMIN}/integrations/?limit=1`);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000');
  });

  it('redirects upper-case API roots to lower case', async () => {
    const res = await t.app.inject({ url: '/ghost/API/Admin/site/' });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`${ADMIN}/site/`);
  });

  it('accepts writes without the trailing slash', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${ADMIN}/integrations`, headers: t.owner, payload: { integrations: [{ name: 'No slash' }] } });
    expect(res.statusCode).toBe(201);
  });
});

describe('request bodies', () => {
  it("answers malformed JSON with Ghost's 400 and type InternalServerError, saying so in the message", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${ADMIN}/integrations/`,
      headers: { ...t.owner, 'content-type': 'application/json' },
      payload: '{"integrations": [}',
    });
    expect(res.statusCode).toBe(400);
    const error = ghostError(res);
    expect(error).toMatchObject({ type: 'InternalServerError', message: 'The request body is not valid JSON.', code: 'UNEXPECTED_ERROR' });
    // Ghost's context: the parser's own words.
    expect(error.context).toMatch(/Unexpected token|not valid JSON/);
  });

  it('reads an empty JSON body as {}', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${ADMIN}/integrations/`, headers: { ...t.owner, 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(400);
    expect(ghostError(res).context).toBe("No root key ('integrations') provided.");
  });

  it('echoes X-Request-ID', async () => {
    const res = await t.app.inject({ url: `${ADMIN}/site/`, headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });
});

describe('unexpected failures', () => {
  it('answer an opaque 500 and log the cause', async () => {
    const database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, CONTENT_DIR: mkdtempSync(path.join(tmpdir(), 'quire-500-')) });
    const connection = connect(config.databaseUrl, { poolSize: 1 });
    await migrateToLatest(connection);
    const logs = logSink();
    const app = await buildApp({ config, connection, logger: { level: 'error', stream: logs.stream } });
    await connection.db.schema.dropTable('settings').execute();
    const res = await app.inject({ url: `${ADMIN}/site/` });
    expect(res.statusCode).toBe(500);
    const error = ghostError(res);
    // Ghost's controller rewrite applies; the driver's text is kept out of the body (Ghost would show it).
    expect(error).toMatchObject({
      type: 'InternalServerError',
      message: 'Internal server error, cannot read site.',
      context: 'An unexpected error occurred, please try again.',
      code: 'UNEXPECTED_ERROR',
    });
    expect(res.body).not.toMatch(/settings|SQLITE|relation|Table/i);
    expect(logs.text()).toMatch(/settings/);
    await app.close();
    await connection.close();
    await database.drop();
  });
});
