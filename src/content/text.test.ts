import { describe, expect, it } from 'vitest';
import { countWords, excerptOf, htmlToPlaintext, readingTime } from './text.js';
import { readingHelpers } from './ghost-libs.js';
import { plaintextFromStorage } from './ghost-url.js';
import { SITE, allPostCases } from '../../test/fixtures/content/load.js';

// Ghost's answers (formats=plaintext, excerpt, reading_time) for every captured post; html is Ghost's output html.

describe('htmlToPlaintext', () => {
  for (const c of allPostCases) {
    it(`gives Ghost's plaintext for "${c.name}"`, () => {
      const { read } = c.ghost;
      if (read.html === null) {
        expect(read.plaintext).toBe('<absent>'); // Ghost stores NULL and leaves the field out
        return;
      }
      // formats=plaintext leaves the field out when it is empty.
      expect(htmlToPlaintext(read.html) || '<absent>').toBe(read.plaintext);
    });
  }

  it('skips images, figcaptions and hr, keeps link text without hrefs, does not wrap or upper-case', () => {
    const html = '<h2>Title</h2><p>A <a href="https://x.com">link</a> and a very long line that would be wrapped by html-to-text at eighty characters by default.</p><figure><img src="a.jpg"><figcaption>cap</figcaption></figure><hr><p>end</p>';
    expect(htmlToPlaintext(html)).toBe('Title\n\nA link and a very long line that would be wrapped by html-to-text at eighty characters by default.\n\nend');
  });
});

describe('excerptOf', () => {
  for (const c of allPostCases) {
    it(`gives Ghost's excerpt for "${c.name}"`, () => {
      const { read, stored } = c.ghost;
      const plaintext = plaintextFromStorage(stored.plaintext, SITE);
      expect(excerptOf({ custom_excerpt: read.custom_excerpt, plaintext })).toBe(read.excerpt);
    });
  }

  it('cuts plaintext at 500 UTF-16 units, even inside a surrogate pair', () => {
    const c = allPostCases.find((x) => x.name === 'surrogates-excerpt')!;
    expect(c.ghost.read.excerpt!.length).toBe(500);
    expect(c.ghost.read.excerpt!.charCodeAt(499)).toBe(0xd83d); // the emoji's first half, as Ghost returns it
  });

  it('prefers custom_excerpt, and an empty plaintext gives null', () => {
    expect(excerptOf({ custom_excerpt: 'Mine', plaintext: 'Body' })).toBe('Mine');
    expect(excerptOf({ custom_excerpt: null, plaintext: '' })).toBeNull();
    expect(excerptOf({ custom_excerpt: null, plaintext: null })).toBeNull();
  });
});

describe('readingTime', () => {
  for (const c of allPostCases) {
    it(`gives Ghost's reading_time for "${c.name}"`, () => {
      const { read } = c.ghost;
      if (!read.html) {
        expect(read.reading_time).toBe('<absent>'); // no html: Ghost leaves the field out; we answer 0
        expect(readingTime({ html: read.html, feature_image: read.feature_image })).toBe(0);
        return;
      }
      expect(readingTime({ html: read.html, feature_image: read.feature_image })).toBe(read.reading_time);
    });
  }

  it('counts 275 words a minute plus 12 s, 11 s, … (at least 3 s) per image, the feature image included', () => {
    const words = (n: number) => `<p>${'word '.repeat(n)}</p>`;
    expect(readingTime({ html: words(275), feature_image: null })).toBe(1);
    expect(readingTime({ html: words(412), feature_image: null })).toBe(1); // 89.9 s
    expect(readingTime({ html: words(413), feature_image: null })).toBe(2); // 90.1 s
    // 0 words, 10 images: 12+11+…+3 = 75 s → 1 minute; with the feature image 78 s → still 1; 20 images → 105 s → 2.
    const images = (n: number) => '<img src="a.jpg">'.repeat(n);
    expect(readingTime({ html: images(10), feature_image: null })).toBe(1);
    expect(readingTime({ html: images(19), feature_image: 'f.jpg' })).toBe(2);
    expect(readingTime({ html: '<p>short</p>', feature_image: null })).toBe(0);
  });
});

describe('countWords', () => {
  // @tryghost/helpers' own countWords is the reference (text.ts counts without its array of every word).
  const helpers = readingHelpers();

  it('counts as the helpers do for every captured post', () => {
    for (const c of allPostCases) if (c.ghost.read.html) expect(countWords(c.ghost.read.html), c.name).toBe(helpers.countWords(c.ghost.read.html));
  });

  it('counts as the helpers do for generated text of every script and boundary they tell apart', () => {
    const pieces = ['word', ' ', 'Ünï', 'ÿ', '\u00bf', '\u00d7', 'Ωμέγα', 'ς', 'Привет', '\u04fa', '中文字', '\u3400\u4e00', 'ぁ', '\u3040x', '한국어', '\ud7b0',
      '\ufa00', 'مرحبا', 'שלום', '\u05f5', '_', '9', '-', '<b>', '<a href="x>y">', "<i title='a>b'>", '</p>', '<br/>', '<', '>', '😀', '\n', '&amp;', 'é'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      expect(countWords(text), JSON.stringify(text)).toBe(helpers.countWords(text));
    }
    for (const text of ['مرحبا بالعالم', 'שלום עולם', 'مرحبا שלום', '<p>!!!</p>']) expect(countWords(text), text).toBe(helpers.countWords(text));
  });

  it('gives the helpers\' readingMinutes', () => {
    for (const c of allPostCases) {
      if (!c.ghost.read.html) continue;
      for (const featureImage of [null, 'f.jpg']) {
        expect(readingTime({ html: c.ghost.read.html, feature_image: featureImage }), c.name).toBe(helpers.readingMinutes(c.ghost.read.html, featureImage ? 1 : 0));
      }
    }
  });
});
