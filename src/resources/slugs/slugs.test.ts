import { describe, expect, it } from 'vitest';
import { expectGhostError } from '../../../test/support.js';
import { makePost, makeStaff, makeTag } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite();

const slugOf = async (url: string) => {
  const res = await t.admin.get(url);
  expect(res.statusCode).toBe(200);
  expect(Object.keys(res.json())).toEqual(['slugs']);
  return res.json().slugs[0].slug as string;
};

describe('GET /slugs/:type/:name/', () => {
  it('slugifies the name by the rules of a write', async () => {
    expect(await slugOf('/slugs/post/Hello%20W%C3%B6rld!/')).toBe('hello-world');
    expect(await slugOf('/slugs/tag/ghost/')).toBe('ghost-tag');
    expect(await slugOf('/slugs/user/Jane%20Doe/')).toBe('jane-doe');
    expect(await slugOf('/slugs/post/%20%20/')).toBe('post');
  });

  it('skips slugs taken in the type’s table, posts and pages alike', async () => {
    await makePost(t, { title: 'Taken Title' });
    await makePost(t, { title: 'Taken Title' }, 'page');
    expect(await slugOf('/slugs/post/Taken%20Title/')).toBe('taken-title-3');
    await makeTag(t, { name: 'Taken Tag' });
    expect(await slugOf('/slugs/tag/Taken%20Tag/')).toBe('taken-tag-2');
    expect(await slugOf('/slugs/user/owner/')).toBe('owner-2');
  });

  it('with an id, the record’s own slug counts as free', async () => {
    const id = await makeTag(t, { name: 'Own Slug' });
    expect(await slugOf(`/slugs/tag/Own%20Slug/${id}/`)).toBe('own-slug');
    expect(await slugOf(`/slugs/tag/Own%20Slug/${'0'.repeat(24)}/`)).toBe('own-slug-2');
  });

  it('refuses an unknown type and a malformed id with 422', async () => {
    const res = await t.admin.get('/slugs/member/x/');
    expectGhostError(res, { status: 422, type: 'ValidationError', message: 'Validation (AllowedValues) failed for type' });
    const bad = await t.admin.get('/slugs/tag/x/not-an-id/');
    expectGhostError(bad, { status: 422, type: 'ValidationError', message: 'Validation (matches) failed for id' });
  });

  it('is open to every staff role, not to integrations or anonymous callers', async () => {
    const contributor = await makeStaff(t, 'Contributor');
    const res = await t.admin.get('/slugs/post/hi/', await t.session(contributor));
    expect(res.statusCode).toBe(200);
    expect((await t.admin.get('/slugs/post/hi/', t.integration())).statusCode).toBe(501);
    expect((await t.admin.get('/slugs/post/hi/', {})).statusCode).toBe(403);
  });
});
