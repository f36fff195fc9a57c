import { describe, expect, it } from 'vitest';
import { lexicalOfPieces, splitHtmlAtBlocks, type HtmlPieceLimits } from './html-blocks.js';
import { htmlPieceToLexicalNodes, htmlToLexical, renderLexical, renderLexicalInPieces } from './render.js';
import { SITE, htmlSourceFixture, lexicalFixture } from '../../test/fixtures/content/load.js';

// Cutting a document must never change what Ghost's converter makes of it: each case converts the whole
// document in one piece and in pieces cut as often as the rules allow, and the two must be the same.
const OFTEN: HtmlPieceLimits = { maxChars: 1, maxBlocks: 1 };

async function inPieces(html: string): Promise<{ pieces: number; lexical: string }> {
  const pieces = splitHtmlAtBlocks(html, OFTEN);
  expect(pieces.join('')).toBe(html);
  return { pieces: pieces.length, lexical: lexicalOfPieces(await Promise.all(pieces.map(htmlPieceToLexicalNodes))) };
}

const section = (i: number) =>
  `<h2>Part ${i}</h2><p>The <strong>quick</strong> brown <em>fox</em> and a <a href="https://example.com/${i}">link</a>.</p>` +
  `<ul><li>First</li><li>Second with <code>code</code></li></ul><blockquote>A quotation.</blockquote>` +
  `<figure><img src="https://example.com/${i}.jpg" alt="Figure ${i}"><figcaption>Caption ${i}</figcaption></figure>` +
  `<pre><code>const part = ${i};\nconsole.log(part &lt; 2);</code></pre>\n\n<p>Closing words.</p>`;

const CUT: [string, string][] = [
  ['sections of headings, formatted paragraphs, lists, quotes, figures and code', [1, 2, 3].map(section).join('\n')],
  ['lists next to lists', '<ul><li>a</li></ul><ul><li>b</li></ul><ol><li>c</li></ol><p>d</p><ol start="3"><li>e</li></ol>'],
  ['rules and empty paragraphs', '<p>a</p><hr><p></p><p> </p><hr/><p>b</p><p><br></p>'],
  ['attributes holding > and quotes', `<p title="a>b" data-x='c>d'>x</p><div class="kg-card"><p>y</p></div><p>z</p>`],
  ['a script and a style between blocks', '<p>a</p><script>if (a<b) { x = "</p>"; }</script><p>b</p><style>p > a {}</style><p>c</p><p>d</p>'],
  [
    'an html card spanning siblings',
    '<p>a</p><!--kg-card-begin: html--><div>one</div><div>two</div><p>three</p><!--kg-card-end: html--><p>b</p><h3>c</h3>',
  ],
  ['a members-only marker', '<p>free</p><!--members-only--><p>paid</p><p>more</p>'],
  ['top-level text and inline elements between blocks', '<p>a</p>loose words<p>b</p><img src="https://example.com/x.jpg"><p>c</p><b>bold</b><h2>d</h2><p>e</p>'],
  ['tables', '<table><tr><td>a</td></tr></table><p>b</p><table><tbody><tr><th>c</th></tr></tbody></table>'],
  ['upper-case tags', '<P>a</P><H2>b</H2><UL><LI>c</LI></UL>'],
];

// Markup an HTML parser repairs: what it carries into later blocks depends on what came before, so no cut.
const WHOLE: [string, string][] = [
  ['a formatting element left open across blocks', '<p><b>bold</p><p>still bold?</p><p>c</p>'],
  ['list items without end tags', '<ul><li>a<li>b</ul><p>c</p><p>d</p>'],
  ['a tag cut off at the end', '<p>a</p><p>b</p><p'],
];

describe('splitHtmlAtBlocks', () => {
  for (const [name, html] of CUT) {
    it(`cuts ${name} into pieces that convert to the same lexical as the whole`, async () => {
      const { pieces, lexical } = await inPieces(html);
      expect(pieces).toBeGreaterThan(1);
      expect(lexical).toBe(await htmlToLexical(html));
    });
  }

  for (const [name, html] of WHOLE) {
    it(`cuts nothing after ${name}`, async () => {
      const { pieces, lexical } = await inPieces(html);
      expect(pieces).toBeLessThanOrEqual(2);
      expect(lexical).toBe(await htmlToLexical(html));
    });
  }

  it("converts each of Ghost's recorded html inputs the same in pieces", async () => {
    for (const c of htmlSourceFixture.cases) {
      const html = c.input.html!;
      expect((await inPieces(html)).lexical, c.name).toBe(await htmlToLexical(html));
    }
  });

  it('keeps a document under the size limit whole, and cuts a large one at the limits', () => {
    const html = [1, 2, 3, 4, 5, 6].map(section).join('');
    expect(splitHtmlAtBlocks(html)).toEqual([html]);
    const pieces = splitHtmlAtBlocks(html, { maxChars: 600, maxBlocks: 1000 });
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.every((piece, i) => i === pieces.length - 1 || piece.length >= 600)).toBe(true);
    // Seven top-level blocks a section: a piece ends before each section's heading.
    expect(splitHtmlAtBlocks(html, { maxChars: 1_000_000, maxBlocks: 7 }).length).toBe(6);
  });
});

describe('renderLexicalInPieces', () => {
  const paragraph = (text: string) => ({
    children: text ? [{ detail: 0, format: 0, mode: 'normal', style: '', text, type: 'extended-text', version: 1 }] : [],
    direction: null,
    format: '',
    indent: 0,
    type: 'paragraph',
    version: 1,
  });
  const heading = (text: string) => ({ ...paragraph(text), type: 'extended-heading', tag: 'h2' });
  const documentOf = (children: unknown[]) =>
    JSON.stringify({ root: { children, direction: null, format: '', indent: 0, type: 'root', version: 1 } });

  it('renders a document one node at a time as the renderer does whole', async () => {
    const documents = [
      // Headings of the same text get ids deduplicated across the whole document; blank paragraphs are kept
      // inside and the trailing one dropped.
      documentOf([heading('Notes'), paragraph('a'), paragraph(''), paragraph(' '), heading('Notes'), paragraph('b'), paragraph(''), heading('Notes'), paragraph('')]),
      ...lexicalFixture.cases.map((c) => c.input.lexical!),
      await htmlToLexical([1, 2, 3].map(section).join('')),
    ];
    for (const lexical of documents) {
      expect(await renderLexicalInPieces(lexical, { siteUrl: SITE }, 1)).toBe(await renderLexical(lexical, { siteUrl: SITE }));
    }
  });
});
