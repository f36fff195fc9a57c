import { describe, expect, it } from 'vitest';
import { ADMIN_BODY_LIMIT, PUBLIC_BODY_LIMIT } from '../src/http/body-limits.js';
import { ADMIN, ORIGIN, ghostError, expectGhostError } from './support.js';
import { useTestSite } from './test-site.js';

const t = useTestSite();

/** Ghost 5.130.6's answer to a JSON body over its limit (body-parser's error, wrapped by Ghost's handler). */
const TOO_LARGE = {
  message: 'An unexpected error occurred, please try again.',
  context: 'request entity too large',
  type: 'InternalServerError',
  details: null,
  property: null,
  help: null,
  code: 'UNEXPECTED_ERROR',
  ghostErrorCode: null,
};

const bodyOf = (size: number, title: string) => {
  const shell = JSON.stringify({ posts: [{ title, html: '' }] });
  return shell.replace('"html":""', `"html":"${'x'.repeat(size - shell.length)}"`);
};

describe('request body limits', () => {
  it('refuses an Admin API body over 50 MB with Ghost 413 and writes nothing', async () => {
    const body = bodyOf(ADMIN_BODY_LIMIT + 1, 'Too large');
    const res = await t.app.inject({
      method: 'POST',
      url: `${ADMIN}/posts/?source=html`,
      headers: { ...t.owner, 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(ghostError(res)).toMatchObject(TOO_LARGE);
    expect(await t.db.selectFrom('posts').select('id').where('title', '=', 'Too large').execute()).toEqual([]);
  });

  it('parses an Admin API body of 5 MB (and then validates it)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${ADMIN}/posts/`,
      headers: { ...t.owner, 'content-type': 'application/json' },
      payload: JSON.stringify({ posts: [{ title: 'x'.repeat(5 * 1024 * 1024) }] }),
    });
    expect(res.statusCode).toBe(422);
    expect(ghostError(res).type).toBe('ValidationError');
  });

  it('gives routes open to anyone (log in, setup, password reset) 100 KB', async () => {
    const password = 'p'.repeat(PUBLIC_BODY_LIMIT);
    const res = await t.app.inject({
      method: 'POST',
      url: `${ADMIN}/session/`,
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'owner@example.com', password }),
    });
    expect(res.statusCode).toBe(413);
    expect(ghostError(res)).toMatchObject(TOO_LARGE);
  });

  it('refuses by the declared length before reading the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${ADMIN}/session/`,
      headers: { origin: ORIGIN, 'content-type': 'application/json', 'content-length': String(PUBLIC_BODY_LIMIT + 1) },
      payload: '{}',
    });
    expect(res.statusCode).toBe(413);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL?.startsWith('mysql'))('posts larger than one MySQL statement', () => {
  it("answers 413 naming max_allowed_packet before sending the insert, and writes nothing (an edit's too)", async () => {
    // 7 MB of html renders to about 14 MB of html and plaintext: over MariaDB's default 16 MB once escaped.
    const res = await t.admin.post('/posts/?source=html', { posts: [{ title: 'Over the packet', html: `<p>${'word '.repeat(1400 * 1024)}</p>` }] });
    expectGhostError(res, { status: 413, type: 'RequestEntityTooLargeError', context: expect.stringContaining('max_allowed_packet') });
    expect(await t.db.selectFrom('posts').select('id').where('title', '=', 'Over the packet').execute()).toEqual([]);

    const small = (await t.admin.post('/posts/', { posts: [{ title: 'Grows too much' }] })).json().posts[0];
    const edit = await t.admin.put(`/posts/${small.id}/?source=html`, {
      posts: [{ html: `<p>${'word '.repeat(1400 * 1024)}</p>`, updated_at: small.updated_at }],
    });
    expect(edit.statusCode).toBe(413);
    expect((await t.admin.get(`/posts/${small.id}/?formats=html`)).json().posts[0].html).toBeNull();
  }, 120_000);
});
