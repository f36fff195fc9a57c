import { describe, expect, it } from 'vitest';
import { htmlSourceFixture, kindOf, lexicalFixture, SITE } from '../../test/fixtures/content/load.js';
import { lexicalFromStorage, lexicalToStorage, lexicalToStorageInPlace } from './ghost-url.js';
import { htmlToLexicalDocumentOrCuts, htmlToLexicalOrCuts } from './html-to-lexical.js';
import { contentFromHtml, storedContent, type ContentFromHtml } from './stored-content.js';

// contentFromHtml keeps the converter's document as one object through the render and the `__GHOST_URL__` form
// (lexicalToStorageInPlace) instead of parsing its text again; what it stores must be what the text path stores.

const site = (path: string) => `${SITE.replace(/\/$/, '')}${path}`;

/** A small seeded generator (mulberry32), so a failure names a document that can be made again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generated(seed: number) {
  const next = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!;
  const url = () =>
    pick([site('/about/'), site('/content/images/2024/01/a.jpg'), '/relative/path/', 'https://example.com/x', '', '#anchor', 'mailto:a@b.c', '__GHOST_URL__/x/']);
  const html = () => pick(['', `<a href="${url()}">link</a> words`, `<img src="${url()}">`, 'plain <b>words</b>']);
  const text = (extra: Record<string, unknown> = {}) => ({ detail: 0, format: 0, mode: 'normal', style: '', text: 'words', type: 'extended-text', version: 1, ...extra });
  const node = (): Record<string, unknown> => {
    switch (Math.floor(next() * 9)) {
      case 0:
        return { type: 'paragraph', version: 1, direction: null, format: '', indent: 0, children: [text(), { type: 'link', url: url(), rel: null, target: null, title: null, version: 1, children: [text()] }] };
      case 1:
        return { type: 'image', version: 1, src: url(), caption: html(), href: url(), alt: '', title: '', width: null, height: null, cardWidth: 'regular' };
      case 2:
        return { type: 'gallery', version: 1, caption: html(), images: [{ src: url(), caption: html(), fileName: 'a.jpg', row: 0 }, pick([null, 'str', { src: url() }])] };
      case 3:
        return { type: 'bookmark', version: 1, url: url(), metadata: pick([{ icon: url(), thumbnail: url(), title: 't' }, {}, null]), caption: html() };
      case 4:
        return { type: 'html', version: 1, html: html() };
      case 5:
        return { type: 'markdown', version: 1, markdown: pick([`[a](${url()})`, '![i](/content/images/x.png)', 'plain']) };
      case 6:
        return { type: 'codeblock', version: 1, code: 'const a = 1;', language: 'js', caption: html() };
      case 7:
        return { type: 'header', version: 1, header: html(), subheader: html(), buttonUrl: url(), backgroundImageSrc: url(), buttonEnabled: true };
      default:
        return { type: 'list', listType: 'bullet', start: 1, tag: 'ul', version: 1, direction: null, format: '', indent: 0, children: [{ type: 'listitem', value: 1, version: 1, children: [{ type: 'link', url: url(), version: 1, children: [text()] }] }] };
    }
  };
  const children = Array.from({ length: 1 + Math.floor(next() * 12) }, node);
  return { root: { children, direction: null, format: '', indent: 0, type: 'root', version: 1 } };
}

describe('lexicalToStorageInPlace', () => {
  // The contract: the document changed in place, written out, is lexicalToStorage of its text; unchanged, that is
  // the text itself (for text JSON.stringify wrote).
  const check = (text: string, siteUrl = SITE) => {
    const document: unknown = JSON.parse(text);
    const changed = lexicalToStorageInPlace(document, siteUrl);
    const expected = lexicalToStorage(text, siteUrl);
    expect(JSON.stringify(document)).toBe(expected);
    if (!changed && JSON.stringify(JSON.parse(text)) === text) expect(expected).toBe(text);
  };

  it("agrees with url-utils on Ghost's lexical fixtures", () => {
    for (const c of lexicalFixture.cases) check(c.input.lexical!);
  });

  it('agrees with url-utils on generated documents of every card with URLs, site links and odd values', () => {
    let changedSome = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const text = JSON.stringify(generated(seed));
      check(text);
      if (lexicalToStorage(text, SITE) !== text) changedSome++;
    }
    expect(changedSome).toBeGreaterThan(100); // the generator does reach the transforms
  });

  it('agrees with url-utils on URLs at the edges of what it passes over without the library', () => {
    // Written as a site of a named host would see them: case, ports, a trailing dot, numeric hosts, users,
    // backslashes, spaces, the parse base url-utils uses, and text and html around them.
    const sites = [SITE, 'https://blog.example.org/', 'http://blog.example.org/sub/'];
    const urls = (host: string) => [
      `https://${host}/a`, `http://${host}`, `https://${host}:443/a`, `https://${host}:80abc`, `https://${host}./a`, `HTTPS://${host.toUpperCase()}/a`,
      `https://user@${host}/a`, `https:\\${host}/a`, ` https://${host}/a`, `https://${host}\t/a`, `//${host}/a`, `https://${host}?q#h`, `https://${host}/sub/a`,
    ];
    const values = [
      ...['blog.example.org', '127.0.0.1', 'example.com', 'relative', '0x7f.0.0.1', '2130706433', 'xn--nxasmq6b.example', 'xn--bad', 'a-.example'].flatMap(urls),
      'https://example.com/images/1.jpg', 'mailto:a@b.c', '/content/images/a.jpg', 'relative/path', '#top', 'Figure 1', 'plain <b>words</b>',
    ];
    for (const siteUrl of sites) {
      for (const value of values) {
        const children = [
          { type: 'paragraph', version: 1, children: [{ type: 'link', url: value, version: 1, children: [] }] },
          { type: 'image', version: 1, src: value, href: value, caption: value },
          { type: 'image', version: 1, src: 'https://example.com/a.jpg', caption: `<a href="${value}">x</a> ${value}` },
        ];
        check(JSON.stringify({ root: { children, type: 'root', version: 1 } }), siteUrl);
      }
    }
  });

  it('leaves a document without root children alone', () => {
    for (const document of [{}, { root: {} }, { root: { children: null } }]) expect(lexicalToStorageInPlace(document, SITE)).toBe(false);
  });
});

/** What contentFromHtml returned before it kept the document: the text converted, rendered and transformed. */
async function byText(html: string) {
  const whole = htmlToLexicalOrCuts(html);
  if ('cuts' in whole) return whole;
  const source = lexicalFromStorage(whole.lexical, SITE);
  const rendered = await storedContent({ content: { lexical: source, mobiledoc: null }, siteUrl: SITE, featureImage: false });
  return { lexical: whole.lexical, rendered };
}

/** The stored columns with a null lexical read as the lexical itself (the caller's reading: off-thread.ts). */
function columns(result: ContentFromHtml | Awaited<ReturnType<typeof byText>>) {
  if ('cuts' in result) return result;
  if ('refused' in result.rendered) return result;
  return { ...result.rendered, stored: { ...result.rendered.stored, lexical: result.rendered.stored.lexical ?? result.lexical } };
}

describe('contentFromHtml', () => {
  const section = (i: number, link: string, image: string) =>
    `<h2>Part ${i}</h2><p>The <strong>quick</strong> fox <a href="${link}">jumps</a> over the <em>lazy</em> dog.</p>` +
    `<ul><li>First point of ${i}</li><li>Second, with <code>code</code></li></ul><blockquote>A quotation.</blockquote>` +
    `<figure><img src="${image}" alt="Figure ${i}"><figcaption>Figure ${i}</figcaption></figure>` +
    `<pre><code>const part = ${i};</code></pre><p>Closing words.</p>`;
  const documents = [
    ...htmlSourceFixture.cases.filter((c) => kindOf(c) === 'html→lexical').map((c) => c.input.html!),
    Array.from({ length: 30 }, (_, i) => section(i, 'https://example.com/a', 'https://example.com/i.jpg')).join(''),
    Array.from({ length: 30 }, (_, i) => section(i, site(`/post-${i}/`), site(`/content/images/${i}.jpg`))).join(''),
    section(1, '/relative/', 'https://example.com/i.jpg') + section(2, site('/x/'), 'https://example.com/j.jpg'),
    `<p>Already stored: <a href="__GHOST_URL__/about/">about</a></p>`,
    '<p>Plain words only.</p><p></p>',
  ];
  for (const [i, html] of documents.entries()) {
    it(`stores what the text path stores for document ${i}`, async () => {
      // Rendered and transformed as an object, the document must be what a parse of its text gives (no undefined
      // members, which the text drops and a renderer testing `in` would see).
      const whole = htmlToLexicalDocumentOrCuts(html);
      if ('document' in whole) expect(whole.document).toStrictEqual(JSON.parse(JSON.stringify(whole.document)));
      expect(columns(await contentFromHtml({ html, siteUrl: SITE, featureImage: false }))).toEqual(columns(await byText(html)));
    });
  }

  it('lets go of the source html once converted, so the task argument the pool holds does not keep it', async () => {
    const task = { html: documents[0]!, siteUrl: SITE, featureImage: false };
    const converting = contentFromHtml(task);
    expect(task.html).toBe(''); // taken before the first await
    expect(columns(await converting)).toEqual(columns(await byText(documents[0]!)));
  });
});
