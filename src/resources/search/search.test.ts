import { describe, expect, it } from 'vitest';
import { CONTENT, SITE_URL } from '../../../test/support.js';
import { lexicalOf, makePost } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite({ settings: { FULL_TEXT_SEARCH: 'true' } });

const search = async (q: string, extra = '') => {
  const res = await t.content.get(`/search/?q=${encodeURIComponent(q)}${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    posts: { id: string; title: string; excerpt: string; url: string; search: { rank: number; title: string | null; excerpt: string | null } }[];
    meta: { pagination: { total: number } };
  };
};
const titles = async (q: string) => (await search(q)).posts.map((post) => post.title);

describe('full-text search', () => {
  it('finds published posts by title, excerpt and body, title matches first', async () => {
    await makePost(t, { title: 'Gardening with kale', status: 'published', lexical: lexicalOf('Soil and water matter most.') });
    await makePost(t, { title: 'Water features', status: 'published', custom_excerpt: 'Ponds, fountains and kale?', lexical: lexicalOf('Pumps.') });
    await makePost(t, { title: 'Notes', status: 'published', lexical: lexicalOf('A long note about kale soup & <b>bold</b> cooking.') });
    await makePost(t, { title: 'Kale draft', lexical: lexicalOf('Not published yet.') });
    await makePost(t, { title: 'Kale page', status: 'published' }, 'page');
    const found = await titles('kale');
    // Relevance within the excerpt and body differs by engine; a title match comes first on every one.
    expect(found[0]).toBe('Gardening with kale');
    expect(found.slice(1).sort()).toEqual(['Notes', 'Water features']);
    expect(await titles('kale soup')).toEqual(['Notes']);
    expect(await titles('nothing-matches-this')).toEqual([]);
  });

  it('matches the last word as a prefix, ignores case and accents, and escapes highlights', async () => {
    await makePost(t, { title: 'Crème Brûlée', status: 'published', lexical: lexicalOf('Caramelised sugar <script>alert(1)</script> on custard.') });
    expect(await titles('creme brul')).toEqual(['Crème Brûlée']);
    expect(await titles('CARAMELISED')).toEqual(['Crème Brûlée']);
    const [post] = (await search('custard')).posts;
    expect(post!.search.title).toBeNull();
    expect(post!.search.excerpt).toContain('<mark>custard</mark>');
    expect(post!.search.excerpt).toContain('&lt;script&gt;');
    expect(post!.url).toBe(`${SITE_URL}creme-brulee/`);
    expect((await search('crème')).posts[0]!.search.title).toBe('<mark>Crème</mark> Brûlée');
  });

  it('keeps bodies of members-only posts out of reach of anonymous readers', async () => {
    await makePost(t, {
      title: 'Secret recipe',
      status: 'published',
      visibility: 'members',
      custom_excerpt: 'For members',
      lexical: lexicalOf('The hidden ingredient is saffron.'),
    });
    expect(await titles('saffron')).toEqual([]);
    const [post] = (await search('secret')).posts;
    expect(post).toMatchObject({ title: 'Secret recipe', excerpt: '' });
    expect(post!.search.excerpt).toBeNull();
  });

  it('follows edits, unpublishing and deletion in the same write', async () => {
    const id = await makePost(t, { title: 'Turnip tales', status: 'published' });
    expect(await titles('turnip')).toEqual(['Turnip tales']);
    const post = (await t.admin.get(`/posts/${id}/`)).json().posts[0];
    await t.admin.put(`/posts/${id}/`, { posts: [{ title: 'Radish tales', updated_at: post.updated_at }] });
    expect(await titles('turnip')).toEqual([]);
    expect(await titles('radish')).toEqual(['Radish tales']);
    await t.admin.del(`/posts/${id}/`);
    expect(await titles('radish')).toEqual([]);
  });

  it('pages results and refuses an empty query', async () => {
    for (let i = 0; i < 3; i++) await makePost(t, { title: `Paging pumpkin ${i}`, status: 'published' });
    const first = await search('pumpkin', '&limit=2');
    expect(first.posts).toHaveLength(2);
    expect(first.meta.pagination).toMatchObject({ page: 1, limit: 2, pages: 2, total: 3 });
    const res = await t.content.get('/search/?q=%20!!');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].type).toBe('ValidationError');
  });
});

it('is off unless FULL_TEXT_SEARCH is set (404 as any unknown Content API path)', async () => {
  const { withTestSite } = await import('../../../test/test-site.js');
  await withTestSite(async (site) => {
    const res = await site.app.inject({ url: `${CONTENT}/search/?q=x&key=${site.keys.contentKey}` });
    expect(res.statusCode).toBe(404);
  });
});
