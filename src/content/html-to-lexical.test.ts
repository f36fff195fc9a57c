import { describe, expect, it } from 'vitest';
import { convertsWithLinkedom, htmlToLexicalDocument } from './html-to-lexical.js';
import { htmlToLexicalConverter } from './ghost-libs.js';
import { allPostCases } from '../../test/fixtures/content/load.js';

// Our converter must give exactly what Ghost's `@tryghost/kg-html-to-lexical` gives, whichever DOM it used:
// every html of the content corpus (Ghost's inputs and Ghost's rendered html), generated large documents
// like the benchmark's, and markup an HTML parser repairs.
const ghostHtmlToLexical = htmlToLexicalConverter();

const paragraph = (i: number) => `<p>The quick brown fox ${i} jumps over the lazy dog &amp; keeps typing.</p>`;
const section = (i: number) =>
  `<h2>Part ${i}: notes</h2><p>The <strong>quick</strong> brown fox jumps over the <em>lazy</em> dog, and a ` +
  `<a href="https://example.com/articles/${i}">link</a> sits in the sentence.</p><ul><li>First ${i}</li><li>Second, with <code>inline code</code></li></ul>` +
  `<blockquote>A quotation.</blockquote><figure><img src="https://example.com/images/${i}.jpg" alt="Figure ${i}"><figcaption>Figure ${i}</figcaption></figure>` +
  `<pre><code>const part = ${i};\nconsole.log(part &lt; 2);</code></pre>\n<p>${'Another paragraph closes the section. '.repeat(3)}</p>`;
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Plain markup (linkedom's) that a parser must repair or read carefully. */
const PLAIN: string[] = [
  '<p>a<p>b</p>c<ul><li>one<li>two</ul>',
  '<p><b>bold <i>both</p><p>still?</b> after</i></p>',
  '<pre>\nleading newline kept out</pre><pre>\n\ntwo</pre>',
  '<p>&nbsp;&amp; &lt;tag&gt; &quot;q&quot; &#39;s&#39; &copy &eacute; &#x1F600; &unknown;</p>',
  '<h1 id="x">Custom id</h1><h2>Same</h2><h2>Same</h2>',
  '<ol><li>one</li><li>two</li></ol><ul><li>a<ul><li>nested</li></ul></li></ul>',
  '<p>line<br>break<br/>twice</br></p><hr><p></p><p> </p><p><br></p>',
  '<blockquote><p>para in quote</p><p>second</p></blockquote>',
  '<P>Upper</P><H3>CASE</H3><A HREF="https://example.com" TITLE="t" TARGET="_blank" REL="noopener">link</A>',
  '<span>span</span> loose <s>s</s><del>del</del><strike>strike</strike><u>u</u><sub>2</sub><sup>3</sup><mark>m</mark>',
  '<a href="/relative">relative</a><a href="#anchor">anchor</a><a>no href</a>',
  '<p>unclosed <strong>strong',
  '<li>stray item</li><p>after</p>',
  '   <p>surrounded by spaces</p>   ',
];

const corpus = allPostCases.flatMap((c) => [c.input.html, c.ghost.read.html].filter((html): html is string => Boolean(html)));
const generated = [range(300).map(paragraph).join(''), range(40).map(section).join('')];

describe('htmlToLexicalDocument', () => {
  it("gives Ghost's lexical for every html of the content corpus, generated documents and repaired markup", () => {
    for (const html of [...corpus, ...generated, ...PLAIN]) {
      expect(JSON.stringify(htmlToLexicalDocument(html)), html.slice(0, 80)).toBe(JSON.stringify(ghostHtmlToLexical(html)));
    }
    expect(htmlToLexicalDocument('')).toEqual(ghostHtmlToLexical(''));
  });

  it('converts plain markup with linkedom, and cards, figures and styles with jsdom', () => {
    // Without this, the comparison above could pass by never leaving Ghost's jsdom path.
    for (const html of [...PLAIN, generated[0]]) expect(convertsWithLinkedom(html), html).toBe(true);
    expect(corpus.filter(convertsWithLinkedom).length).toBeGreaterThanOrEqual(2);
    for (const html of ['<ol start="3"><li>three</li></ol>', '<figure><img src="a.jpg"></figure>', '<p style="text-align:center">x</p>', '<!--kg-card-begin: html--><p>x</p><!--kg-card-end: html-->', '<div>x</div>']) {
      expect(convertsWithLinkedom(html), html).toBe(false);
    }
  });
});

