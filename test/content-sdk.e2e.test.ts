import { beforeAll, describe, expect, it } from 'vitest';
import GhostContentAPI from '@tryghost/content-api';
import { makePage, makePost, makeTag } from './factories.js';
import { SITE_URL } from './support.js';
import { useTestSite } from './test-site.js';

// What a Ghost front end does first: the official Content API SDK against a listening server.
const t = useTestSite();
let content: any;
let base: string;

beforeAll(async () => {
  base = await t.listen();
  content = new GhostContentAPI({ url: base, key: t.keys.contentKey, version: 'v5.0' });
  await t.admin.put('/settings/', {
    settings: [
      { key: 'navigation', value: [{ label: 'Blog', url: '/blog/' }] },
      { key: 'codeinjection_head', value: '<meta name="x">' },
    ],
  });
  const news = await makeTag(t, { name: 'News' });
  await makePost(t, { title: 'First story', status: 'published', tags: [{ id: news }], published_at: '2026-01-02T03:04:05.000Z' });
  await makePost(t, { title: 'Second story', status: 'published', tags: [{ id: news }], published_at: '2026-02-02T03:04:05.000Z' });
  await makePost(t, { title: 'A draft', status: 'draft', tags: [{ id: news }] });
  await makePage(t, { title: 'About us', status: 'published' });
});

describe('@tryghost/content-api', () => {
  it('settings.browse(): the site object a theme or front end renders from', async () => {
    const settings = await content.settings.browse();
    expect(settings).toMatchObject({
      title: 'Test Site',
      description: 'Thoughts, stories and ideas.',
      navigation: [{ label: 'Blog', url: '/blog/' }],
      secondary_navigation: [{ label: 'Sign up', url: '#/portal/' }],
      codeinjection_head: '<meta name="x">',
      codeinjection_foot: null,
      lang: 'en',
      timezone: 'Etc/UTC',
      url: SITE_URL,
      version: '5.130',
    });
  });

  it('posts.browse() and posts.read(): published posts, newest first, with their tags and authors', async () => {
    const posts = await content.posts.browse({ include: 'tags,authors', limit: 10 });
    expect(posts.map((post: { title: string }) => post.title)).toEqual(['Second story', 'First story']);
    expect(posts.meta.pagination).toMatchObject({ page: 1, limit: 10, pages: 1, total: 2 });
    expect(posts[0]).toMatchObject({ primary_tag: { name: 'News' }, primary_author: { name: 'Owner Person' }, url: `${SITE_URL}second-story/` });
    const read = await content.posts.read({ slug: 'first-story' }, { fields: 'title,published_at' });
    expect(read).toMatchObject({ title: 'First story', published_at: '2026-01-02T03:04:05.000+00:00' });
    await expect(content.posts.read({ slug: 'a-draft' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('pages.browse() and pages.read()', async () => {
    const pages = await content.pages.browse();
    expect(pages.map((page: { title: string }) => page.title)).toEqual(['About us']);
    expect((await content.pages.read({ slug: 'about-us' })).url).toBe(`${SITE_URL}about-us/`);
  });

  it('tags.browse() and authors.browse(), with post counts', async () => {
    const tags = await content.tags.browse({ include: 'count.posts' });
    expect(tags.map((tag: { name: string; count: { posts: number } }) => [tag.name, tag.count.posts])).toEqual([['News', 2]]);
    const authors = await content.authors.browse({ include: 'count.posts' });
    expect(authors).toHaveLength(1);
    expect(authors[0]).toMatchObject({ name: 'Owner Person', slug: 'owner', count: { posts: 2 } });
    expect((await content.tags.read({ slug: 'news' })).name).toBe('News');
  });

  it('tiers.browse() lists the free and the default paid tier, with prices', async () => {
    const tiers = await content.tiers.browse({ include: 'monthly_price,yearly_price' });
    expect(tiers.map((tier: { slug: string }) => tier.slug)).toEqual(['free', 'default-product']);
    expect(tiers[1]).toMatchObject({ type: 'paid', monthly_price: 500, yearly_price: 5000 });
  });

  it('a wrong key is refused as Ghost refuses it', async () => {
    const stranger = new GhostContentAPI({ url: base, key: '0123456789abcdef0123456789', version: 'v5.0' });
    await expect(stranger.settings.browse()).rejects.toMatchObject({ name: 'UnauthorizedError', message: 'Unknown Content API Key' });
  });
});
