import { describe, expect, it } from 'vitest';
import {
  fromStorageUrl,
  htmlFromStorage,
  htmlToStorage,
  lexicalFromStorage,
  lexicalStoredAsIs,
  lexicalToStorage,
  mobiledocFromStorage,
  mobiledocToStorage,
  plaintextFromStorage,
  plaintextToStorage,
  toStorageUrl,
} from './ghost-url.js';
import { htmlToLexical, htmlToMobiledoc, renderLexical, renderMobiledoc } from './render.js';
import { htmlToPlaintext } from './text.js';
import { htmlToLexicalOrCuts } from './html-to-lexical.js';
import { SITE, allPostCases, htmlSourceFixture, kindOf, lexicalFixture, mobiledocFixture, type PostCase } from '../../test/fixtures/content/load.js';

// Stored values are read from Ghost's own database file; returned ones are Ghost's API answers.

/** Our html for a case, made the way Ghost made it. */
async function renderCase(c: PostCase): Promise<string> {
  switch (kindOf(c)) {
    case 'lexical':
      return renderLexical(c.input.lexical!, { siteUrl: SITE });
    case 'mobiledoc':
      return renderMobiledoc(c.input.mobiledoc!, { siteUrl: SITE });
    case 'html→lexical':
      return renderLexical(await htmlToLexical(c.input.html!), { siteUrl: SITE });
    case 'html→mobiledoc':
      return renderMobiledoc(await htmlToMobiledoc(c.input.html!), { siteUrl: SITE });
  }
}

describe('lexical', () => {
  for (const c of lexicalFixture.cases) {
    it(`stores and returns "${c.name}" as Ghost does`, () => {
      expect(lexicalToStorage(c.input.lexical, SITE)).toBe(c.ghost.stored.lexical);
      expect(lexicalFromStorage(c.ghost.stored.lexical, SITE)).toBe(c.ghost.read.lexical);
    });
  }

  it('stores the lexical converted from ?source=html as Ghost does', async () => {
    for (const c of htmlSourceFixture.cases.filter((x) => kindOf(x) === 'html→lexical')) {
      expect(lexicalToStorage(await htmlToLexical(c.input.html!), SITE), c.name).toBe(c.ghost.stored.lexical);
      expect(lexicalFromStorage(c.ghost.stored.lexical, SITE), c.name).toBe(c.ghost.read.lexical);
    }
  });
});

describe('lexical that is its own stored form', () => {
  // Converter output said to need no transform (the save then skips url-utils' pass) must be exactly what the
  // transform returns; a document with anything it may rewrite must not be said to.
  const site = (path: string) => `${SITE.replace(/\/$/, '')}${path}`;
  const documents = [
    ...htmlSourceFixture.cases.filter((c) => kindOf(c) === 'html→lexical').map((c) => c.input.html!),
    '<p>Plain words, "quoted", \\ back and 😀 and a text that says "url": here</p><h2>Heading</h2><ul><li>one</li></ul><blockquote>q</blockquote>',
    `<p>A <a href="${site('/about/')}">site link</a> and <a href="/relative/">a relative one</a></p>`,
    `<p>An <a href="https://example.com/">outside link</a></p>`,
    `<figure><img src="${site('/content/images/a.jpg')}" alt="a"></figure><pre><code>x</code></pre><hr>`,
    '<p>__GHOST_URL__/not-a-link</p>',
  ];
  for (const [i, html] of documents.entries()) {
    it(`agrees with lexicalToStorage on converted document ${i}`, async () => {
      for (const lexical of [await htmlToLexical(html), (htmlToLexicalOrCuts(html) as { lexical?: string }).lexical].filter((x) => x !== undefined)) {
        if (lexicalStoredAsIs(lexical)) expect(lexicalToStorage(lexical, SITE)).toBe(lexical);
      }
    });
  }

  it('takes plain text, refuses links and cards with URLs', async () => {
    expect(lexicalStoredAsIs(await htmlToLexical(documents.at(-5)!))).toBe(true);
    for (const html of documents.slice(-4, -1)) expect(lexicalStoredAsIs(await htmlToLexical(html)), html).toBe(false);
  });
});

describe('mobiledoc', () => {
  for (const c of mobiledocFixture.cases) {
    it(`stores and returns "${c.name}" as Ghost does`, () => {
      expect(mobiledocToStorage(c.input.mobiledoc, SITE)).toBe(c.ghost.stored.mobiledoc);
      expect(mobiledocFromStorage(c.ghost.stored.mobiledoc, SITE)).toBe(c.ghost.read.mobiledoc);
    });
  }

  it('stores the mobiledoc converted from ?source=html (existing mobiledoc posts) as Ghost does', async () => {
    for (const c of htmlSourceFixture.cases.filter((x) => kindOf(x) === 'html→mobiledoc')) {
      expect(mobiledocToStorage(await htmlToMobiledoc(c.input.html!), SITE), c.name).toBe(c.ghost.stored.mobiledoc);
      expect(mobiledocFromStorage(c.ghost.stored.mobiledoc, SITE), c.name).toBe(c.ghost.read.mobiledoc);
    }
  });
});

describe('html and plaintext', () => {
  it('stores rendered html and its plaintext as Ghost does, and returns them absolute', async () => {
    for (const c of allPostCases) {
      const html = await renderCase(c);
      if (!html) {
        expect(c.ghost.stored.html, c.name).toBeNull();
        continue;
      }
      expect(htmlToStorage(html, SITE), c.name).toBe(c.ghost.stored.html);
      // Ghost derives plaintext from the html before it is stored ('' is stored as NULL), then stores it
      // transform-ready too.
      expect(plaintextToStorage(htmlToPlaintext(html), SITE) || null, c.name).toBe(c.ghost.stored.plaintext);
      expect(htmlFromStorage(c.ghost.stored.html, SITE), c.name).toBe(c.ghost.read.html);
      const plaintext = plaintextFromStorage(c.ghost.stored.plaintext, SITE);
      expect(plaintext || '<absent>', c.name).toBe(c.ghost.read.plaintext);
    }
  });

  it('transforms only "title [url]" links in plaintext, never bare URLs in the text', () => {
    const c = lexicalFixture.cases.find((x) => x.name === 'relative-and-large')!;
    expect(c.ghost.stored.plaintext).toContain('Visit http://127.0.0.1:2372/in-text/ or /plain/ in text.');
    expect(plaintextToStorage(`Read [${SITE}x/] and [/y/]`, SITE)).toBe('Read [__GHOST_URL__/x/] and [__GHOST_URL__/y/]');
  });
});

describe('URL and html-ish fields', () => {
  for (const c of lexicalFixture.cases) {
    it(`stores and returns the fields of "${c.name}" as Ghost does`, () => {
      const { stored, read } = c.ghost;
      expect(toStorageUrl(c.input.feature_image, SITE)).toBe(stored.feature_image);
      expect(fromStorageUrl(stored.feature_image, SITE)).toBe(read.feature_image);
      // canonical_url keeps the protocol: an https URL on an http site is not "same site".
      expect(toStorageUrl(c.input.canonical_url, SITE, { ignoreProtocol: false })).toBe(stored.canonical_url);
      expect(fromStorageUrl(stored.canonical_url, SITE)).toBe(read.canonical_url);
      // Ghost transforms custom_excerpt and code injection as html.
      for (const field of ['custom_excerpt', 'codeinjection_head', 'codeinjection_foot'] as const) {
        expect(htmlToStorage(c.input[field], SITE), field).toBe(stored[field]);
        expect(htmlFromStorage(stored[field], SITE), field).toBe(read[field]);
      }
    });
  }

  it('ignores the protocol for URL fields other than canonical_url', () => {
    const c = lexicalFixture.cases.find((x) => x.name === 'relative-and-large')!;
    expect(c.ghost.stored.feature_image).toBe('__GHOST_URL__/content/images/https-feature.jpg');
    expect(c.ghost.stored.canonical_url).toBe('https://127.0.0.1:2372/canonical-https/');
    expect(toStorageUrl(c.input.canonical_url, SITE)).toBe('__GHOST_URL__/canonical-https/');
  });

  it('passes empty values through', () => {
    expect(toStorageUrl(null, SITE)).toBeNull();
    expect(htmlToStorage('', SITE)).toBe('');
    expect(lexicalToStorage(undefined, SITE)).toBeUndefined();
    expect(fromStorageUrl(null, SITE)).toBeNull();
  });

  it('leaves external URLs alone and makes site-relative ones transform-ready', () => {
    expect(toStorageUrl('https://example.com/a.jpg', SITE)).toBe('https://example.com/a.jpg');
    expect(toStorageUrl('/my-post/', SITE)).toBe('__GHOST_URL__/my-post/');
    expect(toStorageUrl(`${SITE}content/images/a.jpg`, SITE)).toBe('__GHOST_URL__/content/images/a.jpg');
  });

  it('keeps a subdirectory inside the stored form and expands it back (site at /blog/)', () => {
    const site = 'https://example.com/blog/';
    expect(toStorageUrl('https://example.com/blog/content/images/a.jpg', site)).toBe('__GHOST_URL__/content/images/a.jpg');
    expect(toStorageUrl('/blog/tag/x/', site)).toBe('__GHOST_URL__/tag/x/');
    expect(toStorageUrl('https://example.com/other/', site)).toBe('https://example.com/other/');
    expect(fromStorageUrl('__GHOST_URL__/content/images/a.jpg', site)).toBe('https://example.com/blog/content/images/a.jpg');
    expect(htmlFromStorage('<a href="__GHOST_URL__/x/">__GHOST_URL__</a>', site)).toBe('<a href="https://example.com/blog/x/">https://example.com/blog</a>');
  });
});
