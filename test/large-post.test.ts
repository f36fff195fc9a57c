import { describe, expect, it } from 'vitest';
import { SITE_URL } from './support.js';
import { useTestSite } from './test-site.js';

const t = useTestSite();

// A post large enough to be rendered in pieces (over 256 KB of lexical), sent as html the way migration tools
// and the Admin SDK's `source: 'html'` do. Its markup is plain, so it is converted whole without a DOM
// (html-direct.ts); the edit wraps a number in a `<span>`, which that converter does not take, so the edited
// document is converted in pieces (html-blocks.ts: over 300 top-level blocks). Each section is seven top-level
// blocks, with a heading of the same text in every tenth section (ids are deduplicated across the whole document).
const section = (i: number, span = false) =>
  `<h2>${i % 10 === 0 ? 'Again' : `Part ${i}`}</h2>` +
  `<p>The <strong>quick</strong> brown fox <a href="https://example.com/${i}">jumps</a> over the <em>lazy</em> dog. ${'Words to read. '.repeat(8)}</p>` +
  `<ul><li>First point of ${i}</li><li>Second point</li></ul><blockquote>A quotation in part ${i}.</blockquote>` +
  `<figure><img src="https://example.com/images/${i}.jpg" alt="Figure ${i}"><figcaption>Figure ${i}</figcaption></figure>` +
  `<pre><code>const part = ${i};</code></pre><p>Closing words of part ${span ? `<span>${i}</span>` : i}.</p>`;
const SECTIONS = 400;
const largeHtml = (from = 1, span = false) => Array.from({ length: SECTIONS }, (_, i) => section(from + i, span)).join('\n');

interface LexicalNode {
  type: string;
  children?: { text?: string }[];
}

function expectSections(post: { lexical: string; html: string; plaintext: string }, from: number) {
  const nodes = (JSON.parse(post.lexical) as { root: { children: LexicalNode[] } }).root.children;
  expect(nodes).toHaveLength(SECTIONS * 7);
  for (const i of [0, 1, 150, SECTIONS - 1]) {
    expect(nodes.slice(i * 7, i * 7 + 7).map((n) => n.type)).toEqual([
      'extended-heading',
      'paragraph',
      'list',
      'extended-quote',
      'image',
      'codeblock',
      'paragraph',
    ]);
    expect(nodes[i * 7 + 6]!.children![0]!.text).toBe(`Closing words of part ${from + i}.`);
  }
  // Every section once in the html, in order, and the repeated heading numbered through the whole document.
  expect(post.html.match(/<p>Closing words of part \d+\.<\/p>/g)).toHaveLength(SECTIONS);
  expect(post.html.indexOf(`Closing words of part ${from}.`)).toBeLessThan(post.html.indexOf(`Closing words of part ${from + SECTIONS - 1}.`));
  expect(post.html).toContain('<h2 id="again">Again</h2>');
  expect(post.html).toContain(`<h2 id="again-${SECTIONS / 10 - 1}">Again</h2>`);
  expect(post.plaintext).toContain(`Closing words of part ${from}.`);
}

describe('large posts', () => {
  it('saves a large html post (converted whole, rendered in pieces) whole and in order, and edits it (converted in pieces)', async () => {
    const created = await t.admin.post('/posts/?source=html&formats=lexical,html,plaintext', { posts: [{ title: 'A long import', html: largeHtml() }] });
    expect(created.statusCode).toBe(201);
    // Streamed (long-text-json.ts): JSON all the same.
    expect(created.headers['content-type']).toBe('application/json; charset=utf-8');
    const post = created.json().posts[0];
    expectSections(post, 1);

    const read = (await t.admin.get(`/posts/${post.id}/?formats=lexical,html,plaintext`)).json().posts[0];
    expect(read.lexical).toBe(post.lexical);
    expect(read.html).toBe(post.html);

    const edited = await t.admin.put(`/posts/${post.id}/?source=html&formats=lexical,html,plaintext`, {
      posts: [{ html: largeHtml(1001, true), updated_at: post.updated_at }],
    });
    expect(edited.statusCode).toBe(200);
    expectSections(edited.json().posts[0], 1001);
  }, 180_000);

  it('stores a large html post exactly as its lexical, sent as such, is stored (converted and rendered on one thread)', async () => {
    // Plain markup, so converted whole; with site links (stored `__GHOST_URL__`) and without (lexical stored as is).
    const paragraph = (i: number, links: boolean) =>
      `<p>${'Words to read and count. '.repeat(12)}${links && i % 50 === 0 ? `<a href="/about/${i}/">about ${i}</a>` : ''}</p>`;
    for (const links of [true, false]) {
      const html = Array.from({ length: 3000 }, (_, i) => paragraph(i, links)).join('');
      const feature_image = `${SITE_URL}content/images/cover.jpg`;
      const fromHtml = await t.admin.post('/posts/?source=html&formats=lexical,html,plaintext', { posts: [{ title: 'From html', html, feature_image }] });
      expect(fromHtml.statusCode).toBe(201);
      const converted = fromHtml.json().posts[0];
      const fromLexical = await t.admin.post('/posts/?formats=lexical,html,plaintext', {
        posts: [{ title: 'From lexical', lexical: converted.lexical, feature_image }],
      });
      const sent = fromLexical.json().posts[0];
      for (const key of ['lexical', 'html', 'plaintext', 'reading_time'] as const) expect(converted[key], key).toEqual(sent[key]);
      expect(converted.html.includes(`<a href="${SITE_URL}about/2950/">about 2950</a>`)).toBe(links);
      const columns = ['lexical', 'html', 'plaintext', 'reading_time'] as const;
      const rows = await t.db.selectFrom('posts').select(columns).where('id', 'in', [converted.id, sent.id]).execute();
      expect(rows).toHaveLength(2);
      expect(rows[0]).toEqual(rows[1]);
      expect(rows[0]!.lexical!.includes('__GHOST_URL__/about/2950/')).toBe(links);
    }

    // 2,860 words read in 624 s, 10 minutes; the feature image's 12 s make it 11: the image is counted.
    const words = `<p>${'reading '.repeat(110).trim()}</p>`.repeat(26);
    const minutes = async (feature_image: string | null) =>
      (await t.admin.post('/posts/?source=html', { posts: [{ title: 'Timed', html: words, feature_image }] })).json().posts[0].reading_time;
    expect([await minutes(`${SITE_URL}content/images/cover.jpg`), await minutes(null)]).toEqual([11, 10]);
  }, 180_000);

  it('stores a large lexical post with its site links in `__GHOST_URL__` form (made beside the render) and refuses a broken one as Ghost does', async () => {
    const text = (words: string) => ({ detail: 0, format: 0, mode: 'normal', style: '', text: words, type: 'extended-text', version: 1 });
    const link = (i: number) => ({
      children: [text(`page ${i}`)],
      direction: 'ltr',
      format: '',
      indent: 0,
      type: 'link',
      version: 1,
      rel: null,
      target: null,
      title: null,
      url: `${SITE_URL}about/${i}/`,
    });
    // A site link in every hundredth paragraph (url-utils rewrites the html once per link it finds).
    const paragraph = (i: number) => ({
      children: i % 100 === 99 ? [text(`${'Words to read. '.repeat(20)}See `), link(i)] : [text('Words to read. '.repeat(24))],
      direction: 'ltr',
      format: '',
      indent: 0,
      type: 'paragraph',
      version: 1,
    });
    const children = Array.from({ length: 3000 }, (_, i) => paragraph(i));
    const lexical = JSON.stringify({ root: { children, direction: 'ltr', format: '', indent: 0, type: 'root', version: 1 } });
    expect(lexical.length).toBeGreaterThan(1024 * 1024); // stored apart from the render (off-thread.ts)

    const created = await t.admin.post('/posts/?formats=lexical,html', { posts: [{ title: 'Long with links', lexical }] });
    expect(created.statusCode).toBe(201);
    const post = created.json().posts[0];
    expect(post.lexical).toBe(lexical);
    expect(post.html).toContain(`<a href="${SITE_URL}about/2999/">page 2999</a>`);
    const row = await t.db.selectFrom('posts').select(['lexical', 'html']).where('id', '=', post.id).executeTakeFirstOrThrow();
    expect(row.lexical).toBe(lexical.replaceAll(SITE_URL, '__GHOST_URL__/'));
    expect(row.html).toContain('<a href="__GHOST_URL__/about/2999/">page 2999</a>');

    // A node Lexical cannot read, after enough text that the stored form is made on the other thread.
    const broken = JSON.stringify({
      root: { children: [...children, { type: 'nonexistent-node', version: 1 }], direction: 'ltr', format: '', indent: 0, type: 'root', version: 1 },
    });
    const refused = await t.admin.post('/posts/', { posts: [{ title: 'Broken', lexical: broken }] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0]).toMatchObject({
      type: 'ValidationError',
      message: 'Validation error, cannot save post.',
      context: expect.stringMatching(/^Invalid lexical structure\. /),
      property: 'lexical',
    });
  }, 180_000);
});
