import { describe, expect, it } from 'vitest';
import { expectGhostError } from '../../../test/support.js';
import { makePost, makeStaff } from '../../../test/factories.js';
import { useSecondInstance, useTestSite } from '../../../test/test-site.js';

const part = (text: string, name: string, type = 'application/octet-stream') => ({ redirects: { name, type, data: Buffer.from(text) } });

describe('redirects: GET /redirects/download/ and POST /redirects/upload/', () => {
  const t = useTestSite();

  const second = useSecondInstance(t);

  it('downloads an empty JSON list before any upload', async () => {
    const res = await t.admin.get('/redirects/download/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('Attachment; filename="redirects.json"');
    expect(res.json()).toEqual([]);
  });

  it('applies an uploaded JSON file before the site routes, on every instance at once', async () => {
    await makePost(t, { title: 'Target', slug: 'target', status: 'published' });
    expect((await second.app.inject({ url: '/moved/' })).statusCode).toBe(404);
    const rules = [
      { from: '/moved/', to: '/target/', permanent: true },
      { from: '^/year/(\\d{4})/(.+)$', to: '/$2' },
      // A rule on a path the site itself answers wins over the site.
      { from: '/target/', to: '/never/' },
    ];
    const res = await t.admin.upload('/redirects/upload/', part(JSON.stringify(rules, null, 2), 'redirects.json'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    const download = await t.admin.get('/redirects/download/');
    expect(download.headers['content-disposition']).toBe('Attachment; filename="redirects.json"');
    // Ghost keeps the file as it parsed it: compact JSON.
    expect(download.body).toBe(JSON.stringify(rules));

    for (const app of [t.app, second.app]) {
      const moved = await app.inject({ url: '/moved?utm=1' });
      expect(moved.statusCode).toBe(301);
      expect(moved.headers.location).toBe('/target/?utm=1');
      expect(moved.headers['cache-control']).toBe('public, max-age=31536000');
      const captured = await app.inject({ url: '/year/2024/target/' });
      expect(captured.statusCode).toBe(302);
      expect(captured.headers.location).toBe('/target/');
      expect(captured.headers['cache-control']).toBe('public, max-age=0');
      expect((await app.inject({ url: '/target/' })).headers.location).toBe('/never/');
    }
  });

  it('replaces a JSON file with a YAML one, downloaded as uploaded', async () => {
    const yaml = '301:\n  /from-yaml/: /target/\n302:\n  /temporary/: https://example.com/x?y=1\n';
    expect((await t.admin.upload('/redirects/upload/', part(yaml, 'redirects.yaml'))).statusCode).toBe(200);
    const download = await t.admin.get('/redirects/download/');
    expect(download.headers['content-disposition']).toBe('Attachment; filename="redirects.yaml"');
    expect(download.body).toBe(yaml);
    expect((await second.app.inject({ url: '/from-yaml/' })).headers.location).toBe('/target/');
    expect((await second.app.inject({ url: '/temporary/?z=2' })).headers.location).toBe('https://example.com/x?z=2&y=1');
    // The JSON file's rules are gone.
    expect((await second.app.inject({ url: '/moved/' })).statusCode).toBe(404);
    expect((await second.app.inject({ url: '/target/' })).statusCode).toBe(200);
  });

  it("refuses a bad file with Ghost's errors and keeps the file in effect", async () => {
    const help = 'https://ghost.org/docs/themes/routing/#redirects';
    const cases: [string, string, Parameters<typeof expectGhostError>[1]][] = [
      ['{"from":"/a/"}', 'r.json', { status: 422, type: 'ValidationError', message: 'Incorrect redirects file format.', help }],
      [
        '[{"from":"/a/"}]',
        'r.json',
        { status: 422, type: 'ValidationError', message: 'Incorrect redirects file format.', help, context: { from: '/a/' } as never },
      ],
      [
        '[{"from":"/a(/","to":"/b"}]',
        'r.json',
        { status: 422, type: 'ValidationError', message: 'Incorrect RegEx in redirects file.', help, context: { from: '/a(/', to: '/b' } as never },
      ],
      ['[{"from":', 'r.json', { status: 400, type: 'BadRequestError', message: 'Could not parse JSON: Unexpected end of JSON input.' }],
      ['x', 'r.yaml', { status: 400, type: 'BadRequestError', message: 'YAML input is invalid. Check the contents of your YAML file.', help }],
      [
        'a: [',
        'r.yaml',
        {
          status: 400,
          type: 'BadRequestError',
          message: 'Could not parse YAML: unexpected end of the stream within a flow collection (2:1)\n\n 1 | a: [\n 2 | \n-----^.',
        },
      ],
      ['{}', 'r.txt', { status: 415, type: 'UnsupportedMediaTypeError', message: 'Please select a valid JSON file to import.' }],
    ];
    for (const [text, name, expected] of cases) expectGhostError(await t.admin.upload('/redirects/upload/', part(text, name)), expected);
    expectGhostError(await t.admin.upload('/redirects/upload/', { title: 'none' }), {
      status: 422,
      type: 'ValidationError',
      message: 'Please select a JSON file.',
    });
    expect((await t.admin.get('/redirects/download/')).headers['content-disposition']).toBe('Attachment; filename="redirects.yaml"');
    expect((await t.app.inject({ url: '/from-yaml/' })).statusCode).toBe(301);
  });

  it('is for Owners and Administrators only; integrations are outside Ghost’s allow-list', async () => {
    const editor = await t.session(await makeStaff(t, 'Editor'));
    expectGhostError(await t.admin.get('/redirects/download/', editor), { status: 403, type: 'NoPermissionError' });
    expectGhostError(await t.admin.upload('/redirects/upload/', part('[]', 'r.json'), editor), { status: 403, type: 'NoPermissionError' });
    expectGhostError(await t.admin.get('/redirects/download/', t.integration()), { status: 501, type: 'NotImplementedError' });
    expectGhostError(await t.admin.upload('/redirects/upload/', part('[]', 'r.json'), t.integration()), { status: 501, type: 'NotImplementedError' });
    const admin = await t.session(await makeStaff(t, 'Administrator'));
    expect((await t.admin.get('/redirects/download/', admin)).statusCode).toBe(200);
  });

  it('answers 404 for redirects paths Ghost does not have', async () => {
    expectGhostError(await t.admin.get('/redirects/'), { status: 404, type: 'NotFoundError' });
  });
});
