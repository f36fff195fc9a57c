import { describe, expect, it } from 'vitest';
import { SITE_URL } from '../../../test/support.js';
import { makePost, makeStaff, makeTag } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite();

describe('Admin API search index', () => {
  it('lists posts of every status with their index fields, most recently updated first', async () => {
    const draft = await makePost(t, { title: 'Index Draft' });
    const published = await makePost(t, { title: 'Index Published', status: 'published' });
    await makePost(t, { title: 'Index Page' }, 'page');
    const res = await t.admin.get('/search-index/posts/');
    expect(res.statusCode).toBe(200);
    const { posts } = res.json();
    expect(Object.keys(res.json())).toEqual(['posts']);
    expect(Object.keys(posts[0])).toEqual(['id', 'url', 'title', 'status', 'published_at', 'visibility']);
    const ids = posts.map((p: { id: string }) => p.id);
    expect(ids).toContain(draft);
    expect(posts.find((p: { id: string }) => p.id === published)).toMatchObject({
      status: 'published',
      url: `${SITE_URL}index-published/`,
      visibility: 'public',
    });
    expect(posts.find((p: { id: string }) => p.id === draft).url).toMatch(new RegExp(`^${SITE_URL}p/[0-9a-f-]{36}/$`));
    expect(posts.some((p: { title: string }) => p.title === 'Index Page')).toBe(false);
  });

  it('lists pages, tags and users', async () => {
    await makeTag(t, { name: 'Index Tag' });
    const pages = (await t.admin.get('/search-index/pages/')).json().pages;
    expect(pages.some((p: { title: string }) => p.title === 'Index Page')).toBe(true);
    const tags = (await t.admin.get('/search-index/tags/')).json().tags;
    expect(tags.find((tag: { name: string }) => tag.name === 'Index Tag')).toEqual({
      id: expect.any(String),
      slug: 'index-tag',
      name: 'Index Tag',
      url: `${SITE_URL}404/`,
    });
    const users = (await t.admin.get('/search-index/users/')).json().users;
    expect(users.find((u: { slug: string }) => u.slug === 'owner')).toEqual({
      id: '1',
      slug: 'owner',
      name: 'Owner Person',
      url: `${SITE_URL}author/owner/`,
      profile_image: null,
    });
  });

  it('is open to contributors and integrations, not to anonymous callers', async () => {
    const contributor = await makeStaff(t, 'Contributor');
    const as = await t.session(contributor);
    expect((await t.admin.get('/search-index/posts/', as)).statusCode).toBe(200);
    expect((await t.admin.get('/search-index/tags/', t.integration())).statusCode).toBe(200);
    expect((await t.admin.get('/search-index/users/', {})).statusCode).toBe(403);
  });
});

describe('Content API search index', () => {
  it('lists published posts only, with excerpts withheld from members-only posts', async () => {
    await makePost(t, { title: 'Public Read', status: 'published', custom_excerpt: 'Open to all' });
    await makePost(t, { title: 'Members Read', status: 'published', custom_excerpt: 'Members only', visibility: 'members' });
    const res = await t.content.get('/search-index/posts/');
    expect(res.statusCode).toBe(200);
    const { posts } = res.json();
    expect(Object.keys(posts[0])).toEqual(['id', 'slug', 'title', 'excerpt', 'url', 'updated_at', 'visibility']);
    expect(posts.some((p: { title: string }) => p.title === 'Index Draft')).toBe(false);
    expect(posts.find((p: { title: string }) => p.title === 'Public Read')).toMatchObject({
      excerpt: 'Open to all',
      updated_at: expect.stringMatching(/\+00:00$/),
    });
    expect(posts.find((p: { title: string }) => p.title === 'Members Read')).toMatchObject({ excerpt: '', visibility: 'members' });
  });

  it('lists authors with published posts and public tags', async () => {
    await makeTag(t, { name: '#internal-one' });
    const authors = (await t.content.get('/search-index/authors/')).json().authors;
    expect(authors.map((a: { slug: string }) => a.slug)).toEqual(['owner']);
    const tags = (await t.content.get('/search-index/tags/')).json().tags;
    expect(tags.every((tag: { slug: string }) => !tag.slug.startsWith('hash-'))).toBe(true);
    expect((await t.app.inject({ url: '/ghost/api/content/search-index/posts/' })).statusCode).toBe(403);
  });
});
