import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { plaintextConverters } from './ghost-libs.js';
import { plaintextWhileParsing } from './plaintext-streamed.js';
import { STREAMED_PLAINTEXT_FROM_CHARS, htmlToPlaintext } from './text.js';
import { allPostCases, contentApiFixture } from '../../test/fixtures/content/load.js';
import { largeHtml } from '../../test/fixtures/large-html.mjs';
import { seededRandom } from '../../test/fixtures/random.js';

// The reference is the library itself on the whole document: @tryghost/html-to-plaintext's excerpt converter.
const wholeDocument = (html: string) => plaintextConverters().excerpt(html);

describe('plaintextWhileParsing gives the library’s plaintext of the whole document', () => {
  it("for Ghost's rendered html of every captured post", () => {
    const richPost = JSON.parse(readFileSync('test/fixtures/lexical-rich.ghost.json', 'utf8')) as { admin: { html: string } };
    const documents = [...allPostCases.map((c) => c.ghost.read.html), ...contentApiFixture.cases.map((c) => c.html), richPost.admin.html];
    let compared = 0;
    for (const html of documents) {
      if (!html) continue;
      expect(plaintextWhileParsing(html), html).toBe(wholeDocument(html));
      compared++;
    }
    expect(compared).toBeGreaterThan(30); // 37 today: the fixtures loaded
  });

  it("for the bench's documents (bench/large-html-post.mjs: text and mixed) at several sizes", () => {
    for (const kind of ['text', 'mixed'] as const) {
      for (const bytes of [1, 2_000, 40_000, 300_000]) {
        const html = largeHtml(kind, bytes);
        expect(plaintextWhileParsing(html), `${kind} ${bytes}`).toBe(wholeDocument(html));
      }
    }
  });

  it('for hand-written joins between top-level nodes', () => {
    for (const html of TRICKY_DOCUMENTS) expect(plaintextWhileParsing(html), html).toBe(wholeDocument(html));
  });

  it('for 400 generated documents', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const html = generatedDocument(seed);
      expect(plaintextWhileParsing(html), `seed ${seed}: ${html}`).toBe(wholeDocument(html));
    }
  });

  it('for documents cut anywhere, inside a tag, an entity or a comment (as the PLAINTEXT_HTML_LIMIT cut may fall)', () => {
    const whole = TRICKY_DOCUMENTS.join('') + generatedDocument(77) + largeHtml('mixed', 3_000);
    for (let end = 0; end <= whole.length; end += 7) {
      const cut = whole.slice(0, end);
      expect(plaintextWhileParsing(cut), `cut at ${end}`).toBe(wholeDocument(cut));
    }
  });

  it('for large documents through htmlToPlaintext, which streams from STREAMED_PLAINTEXT_FROM_CHARS', () => {
    const mixed = largeHtml('mixed', STREAMED_PLAINTEXT_FROM_CHARS + 10_000);
    expect(htmlToPlaintext(mixed)).toBe(wholeDocument(mixed));
    let generated = '';
    for (let seed = 1000; generated.length < STREAMED_PLAINTEXT_FROM_CHARS; seed++) generated += generatedDocument(seed);
    expect(htmlToPlaintext(generated)).toBe(wholeDocument(generated));
  });

  it('for a document that holds the marker element or a body element', () => {
    for (const html of [
      '<p>a</p><quire-streamed-plaintext>in <b>it</b></quire-streamed-plaintext><p>b</p>',
      '<quire-streamed-plaintext class="kg-signup-card">skipped</quire-streamed-plaintext>x',
      '<p>outside</p><body><p>inside</p></body><p>after</p>',
      '<div><BODY>x</BODY></div>',
    ]) {
      expect(plaintextWhileParsing(html), html).toBe(wholeDocument(html));
    }
  });

  it('and the same converter is reusable: one conversion leaves nothing for the next', () => {
    const first = generatedDocument(7);
    const second = generatedDocument(8);
    expect(plaintextWhileParsing(first)).toBe(wholeDocument(first));
    expect(plaintextWhileParsing(second)).toBe(wholeDocument(second));
    expect(plaintextWhileParsing('')).toBe(wholeDocument(''));
  });
});

/** Joins where html-to-text's line breaks, stashed spaces and text merging meet between top-level nodes. */
const TRICKY_DOCUMENTS = [
  'text before<p>para</p>text after',
  'a<b>b</b>c<i>d</i> e',
  '  <p>x</p>  \n\n  <p>y</p>\n',
  '<p>x</p>\n\n\n<p>y</p>',
  'word\n<br>\nword<br><br>end',
  '<h1>One</h1>tail <em>inline</em><h2>Two</h2>',
  '<ul><li>a<ul><li>b</li></ul></li></ul>after list',
  '<p>open paragraph<p>implicitly closed<div>div</div>text',
  '</p>stray close<p>x</p></b>y</br>z',
  'a &amp; b<p>&lt;tag&gt; &nbsp; &#x27;q&#39;</p>&amp',
  '<pre>  keep\n  spaces  </pre>  after pre  <pre>\n</pre>',
  '<!-- comment --><p>x</p><!-- a --><!-- b -->y',
  '<!doctype html><p>x</p>',
  '<hr><hr>x<hr>',
  '<table><tr><th>h</th><td>c</td></tr></table>text<table><tbody><tr><td>1</td></tr></tbody></table>',
  '<blockquote><p>q</p></blockquote>\n<blockquote>bare quote</blockquote>',
  '<figure><img src="a.jpg"><figcaption>cap</figcaption></figure>after',
  '<img src="a.jpg" alt="top-level image">text',
  'x<wbr>y<wbr><p>z</p>',
  '<div class="footnotes"><p>skip</p></div><a rel="footnote" href="#1">1</a><a href="/x">link</a>',
  '<div class="kg-signup-card">signup</div>after',
  '<svg><text>vector</text></svg>then<math><mi>x</mi></math>',
  '<script>var a = "<p>";</script><style>p{}</style>x',
  '<textarea><p>raw</p></textarea><title>t</title>',
  '<![CDATA[data]]>x',
  '<p>unclosed at the end',
  '<b>unclosed inline',
  '\n',
  ' ',
  '<p></p><p> </p><p>\n</p>',
];

/** A random document of top-level blocks, inline runs and whitespace, of the kinds Ghost's renderers write and more. */
function generatedDocument(seed: number): string {
  const r = seededRandom(seed);
  const words = ['alpha', 'beta', 'gamma', '&amp;', '&nbsp;', '&#x27;', '&lt;b&gt;', 'café', '日本語', '😀', 'a.b', '-'];
  const spaces = ['', ' ', '  ', '\n', '\n\n', ' \n ', '\t', '\u00a0'];
  const text = (): string => Array.from({ length: 1 + r.int(5) }, () => r.pick(words)).join(r.pick([' ', ' ', '\n', '  ']));
  const inline = (depth = 0): string => {
    const parts = Array.from({ length: 1 + r.int(3) }, () => {
      if (depth > 1 || r.next() < 0.5) return text();
      const tag = r.pick(['strong', 'em', 'code', 'span', 'b', 'i']);
      if (r.next() < 0.15) return `<a href="https://example.com/${r.int(9)}">${inline(depth + 1)}</a>`;
      if (r.next() < 0.1) return '<br>';
      return `<${tag}>${inline(depth + 1)}</${tag}>`;
    });
    return parts.join(r.pick(['', ' ', '\n']));
  };
  const list = (depth: number): string => {
    const tag = r.pick(['ul', 'ol']);
    const items = Array.from({ length: 1 + r.int(4) }, () => {
      const nested = depth < 2 && r.next() < 0.3 ? list(depth + 1) : '';
      return `<li>${inline()}${nested}</li>`;
    });
    return `<${tag}>${items.join(r.pick(['', '\n']))}</${tag}>`;
  };
  const block = (): string => {
    switch (r.int(14)) {
      case 0:
        return `<h${1 + r.int(6)}>${inline()}</h${1 + r.int(6)}>`; // the closing level is drawn again: sometimes another
      case 1:
      case 2:
        return `<p>${inline()}</p>`;
      case 3:
        return list(0);
      case 4:
        return r.next() < 0.5 ? `<blockquote>${inline()}</blockquote>` : `<blockquote><p>${inline()}</p><p>${inline()}</p></blockquote>`;
      case 5:
        return `<table><thead><tr><th>${text()}</th><th>${text()}</th></tr></thead><tbody><tr><td>${inline()}</td><td>${text()}</td></tr></tbody></table>`;
      case 6:
        return `<pre><code>${text()}\n  ${text()}\n</code></pre>`;
      case 7:
        return `<figure class="kg-card kg-image-card"><img src="/content/images/${r.int(9)}.jpg" alt="${r.pick(['', 'alt'])}"><figcaption>${inline()}</figcaption></figure>`;
      case 8:
        return '<hr>';
      case 9:
        return text(); // inline text straight between blocks
      case 10:
        return r.pick(spaces); // whitespace-only text nodes
      case 11:
        return `<div class="${r.pick(['kg-card', 'footnotes', 'kg-signup-card', ''])}">${inline()}</div>`;
      case 12:
        return r.pick(['<br>', '<img src="x.jpg">', '<!-- c -->', '<wbr>', '<p>unclosed ', '</p>']);
      default:
        return `<${r.pick(['strong', 'em', 'a'])}>${inline()}</${r.pick(['strong', 'em', 'a'])}>`;
    }
  };
  return Array.from({ length: 1 + r.int(12) }, block).join(r.pick(['', '', '\n', ' ', '\n\n']));
}
