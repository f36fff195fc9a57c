import { beforeAll, describe, expect, it } from 'vitest';
import { SITE_URL } from '../../../test/support.js';
import { useTestSite } from '../../../test/test-site.js';
import { lexicalOf, makePost } from '../../../test/factories.js';

// A list reads only the start of plaintext for the excerpt: the excerpt must be the first 500 UTF-16 units of
// the whole plaintext, whatever characters or stored site URLs surround the cut.
const t = useTestSite({ caller: 'integration' });
const site = SITE_URL.replace(/\/$/, '');
const texts: Record<string, string> = {
  // Astral characters (two units each) across the 500th unit and the read's character limit.
  astral: `${'a'.repeat(499)}${'😀'.repeat(400)} end`,
  // A site URL (stored as __GHOST_URL__) starting just before the characters read, and one well within them.
  'url-at-edge': `${'b'.repeat(590)}${site}/edge ${'c'.repeat(100)}`,
  'url-across': `${'f'.repeat(480)} ${site}/across ${'g'.repeat(700)}`,
  'url-early': `${'d'.repeat(100)} ${site}/early ${'e'.repeat(700)}`,
  short: `short ${site}/x`,
};

beforeAll(async () => {
  let day = 1;
  for (const [slug, text] of Object.entries(texts)) {
    await makePost(t, { title: slug, slug, status: 'published', published_at: `2025-01-0${day++}T10:00:00.000Z`, lexical: lexicalOf(text) });
  }
});

describe('Content API post excerpts', () => {
  it('are the first 500 units of the whole plaintext, in lists and reads alike', async () => {
    const listed = (await t.content.get('/posts/?limit=all')).json().posts as { slug: string; excerpt: string }[];
    expect(listed).toHaveLength(Object.keys(texts).length);
    for (const post of listed) {
      const read = (await t.content.get(`/posts/slug/${post.slug}/?formats=plaintext`)).json().posts[0];
      expect(read.plaintext.length).toBeGreaterThan(0);
      expect(post.excerpt, post.slug).toBe(read.plaintext.substring(0, 500));
      expect(read.excerpt, post.slug).toBe(post.excerpt);
      expect((await t.content.get(`/posts/slug/${post.slug}/`)).json().posts[0].excerpt, post.slug).toBe(post.excerpt);
    }
    const astral = listed.find((post) => post.slug === 'astral')!;
    expect(astral.excerpt.charCodeAt(499)).toBe(0xd83d);
    expect(listed.find((post) => post.slug === 'url-early')!.excerpt).toContain(`${site}/early`);
    expect(listed.find((post) => post.slug === 'url-across')!.excerpt.endsWith(` ${site.slice(0, 19)}`)).toBe(true);
  });

  it('are whole in lists with formats=plaintext', async () => {
    const listed = (await t.content.get('/posts/?limit=all&formats=plaintext')).json().posts as { slug: string; plaintext: string; excerpt: string }[];
    for (const post of listed) expect(post.excerpt).toBe(post.plaintext.substring(0, 500));
    expect(listed.find((post) => post.slug === 'url-at-edge')!.plaintext).toContain(`${site}/edge`);
  });
});
