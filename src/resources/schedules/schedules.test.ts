import { describe, expect, it } from 'vitest';
import { signAdminToken } from '../../auth/admin-jwt.js';
import { objectId } from '../../db/ids.js';
import { ADMIN, expectGhostError } from '../../../test/support.js';
import { makeStaff } from '../../../test/factories.js';
import { loginAs, staffKey } from '../../../test/staff-support.js';
import { useTestSite } from '../../../test/test-site.js';

/**
 * `PUT /schedules/:resource/:id/`, Ghost's scheduler callback, with the token in `?token=`. Method `publish` is not one
 * Ghost rewrites errors for: messages stay as raised. The job runner is
 * off here, so only the callback publishes.
 */
const t = useTestSite();
const now = () => Math.floor(Date.now() / 1000);
/** A scheduler-style token: issued long ago (no 5-minute age limit on this route), valid for hours. */
const urlToken = (key: string) => signAdminToken(key, { iat: now() - 3600, exp: now() + 3600 });

async function scheduled(inMs: number, type: 'posts' | 'pages' = 'posts'): Promise<string> {
  const res = await t.admin.post(`/${type}/`, {
    [type]: [{ title: 'Later', status: 'scheduled', published_at: new Date(Date.now() + 3_600_000).toISOString() }],
  });
  const id = res.json()[type][0].id as string;
  // Any time, the past included, as if the clock had moved on.
  await t.db
    .updateTable('posts')
    .set({ published_at: new Date(Date.now() + inMs) })
    .where('id', '=', id)
    .execute();
  return id;
}

const put = (path: string, token?: string, body?: unknown) =>
  t.app.inject({ method: 'PUT', url: `${ADMIN}${path}${token ? `?token=${token}` : ''}`, ...(body ? { payload: body as object } : {}) });

describe('PUT /schedules/:resource/:id/', () => {
  it('publishes a post due within two minutes, once', async () => {
    const id = await scheduled(30_000);
    const res = await put(`/schedules/posts/${id}/`, urlToken(t.keys.adminKey));
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(res.json().posts[0]).toMatchObject({ id, status: 'published' });
    // Published already: the post is no longer scheduled.
    const again = await put(`/schedules/posts/${id}/`, urlToken(t.keys.adminKey));
    expectGhostError(again, { status: 404, type: 'NotFoundError', message: 'Post not found.' });
  });

  it('publishes pages', async () => {
    const id = await scheduled(0, 'pages');
    const res = await put(`/schedules/pages/${id}/`, urlToken(t.keys.adminKey));
    expect(res.statusCode).toBe(200);
    expect(res.json().pages[0]).toMatchObject({ id, status: 'published' });
  });

  it('refuses a post not yet due, and one more than two minutes late unless forced', async () => {
    const early = await scheduled(10 * 60_000);
    let res = await put(`/schedules/posts/${early}/`, urlToken(t.keys.adminKey));
    expectGhostError(res, { status: 404, type: 'NotFoundError', message: 'Job not found.' });
    const late = await scheduled(-10 * 60_000);
    res = await put(`/schedules/posts/${late}/`, urlToken(t.keys.adminKey));
    expectGhostError(res, { status: 404, message: 'Use the force flag to publish a post in the past.' });
    res = await put(`/schedules/posts/${late}/`, urlToken(t.keys.adminKey), { force: true });
    expect(res.statusCode).toBe(200);
  });

  it('takes its token from the URL only, without the age limit but with exp', async () => {
    const id = await scheduled(0);
    let res = await t.app.inject({ method: 'PUT', url: `${ADMIN}/schedules/posts/${id}/`, headers: { authorization: `Ghost ${urlToken(t.keys.adminKey)}` } });
    expectGhostError(res, { status: 401, type: 'UnauthorizedError', message: 'Invalid token: No token found in URL', code: 'INVALID_JWT' });
    res = await put(`/schedules/posts/${id}/`, signAdminToken(t.keys.adminKey, { iat: now() - 7200, exp: now() - 60 }));
    expectGhostError(res, { status: 401, message: 'Invalid token: jwt expired' });
    res = await put(`/schedules/tags/${id}/`, urlToken(t.keys.adminKey));
    expect(res.statusCode).toBe(422);
    res = await put(`/schedules/posts/${objectId()}/`, urlToken(t.keys.adminKey));
    expect(res.statusCode).toBe(404);
  });

  it("checks post.publish against the token's role: editors may, contributors may not", async () => {
    const editor = await makeStaff(t, 'Editor');
    const contributor = await makeStaff(t, 'Contributor');
    const editorKey = await staffKey(t.app, await loginAs(t.app, editor.email, editor.password));
    const contributorKey = await staffKey(t.app, await loginAs(t.app, contributor.email, contributor.password));
    const id = await scheduled(0);
    let res = await put(`/schedules/posts/${id}/`, urlToken(contributorKey));
    expect(res.statusCode).toBe(403);
    res = await put(`/schedules/posts/${id}/`, urlToken(editorKey));
    expect(res.statusCode).toBe(200);
  });
});
