import { describe, expect, it } from 'vitest';
import { directLexicalChildren } from './html-direct.js';
import { htmlToLexicalDocument } from './html-to-lexical.js';
import { htmlToLexicalConverter } from './ghost-libs.js';
import { allPostCases } from '../../test/fixtures/content/load.js';
import { seededRandom } from '../../test/fixtures/random.js';

// The direct converter must give Ghost's `@tryghost/kg-html-to-lexical` document, byte for byte, for every
// html it accepts; what it refuses goes to Ghost's path. Seeded random documents of its markup (entities,
// whitespace, nesting, letter case, attributes, and broken variants a parser repairs) are compared one by one.
const ghostHtmlToLexical = htmlToLexicalConverter();
const root = (children: unknown[]) => JSON.stringify({ root: { children, direction: null, format: '', indent: 0, type: 'root', version: 1 } });


const WORDS = ['fox', 'jumps', 'a', 'über', '¿qué?', '"quoted"', "it's", '>', 'x=1', '—', '😀', '\u00a0'];
const SPACES = ['', '', '', ' ', ' ', '  ', '\n', '\t', ' \n ', '\u00a0'];
const ENTITIES = ['&amp;', '&nbsp;', '&lt;', '&gt;', '&quot;', '&#39;', '&copy', '&copy;', '&eacute;', '&#x1F600;', '&#128;', '&amp', '&notit;', '&unknown;', '& ', '&#10;', '&#9;', '&#32;', '&#13;', '&#0;', '&ampx'];
const FORMATS = ['b', 'strong', 'em', 'i', 'u', 's', 'sub', 'sup', 'code', 'B', 'Strong'];
const ATTRIBUTE_VALUES = ['https://example.com/a?b=1&c=2', 'https://example.com/a?b=1&amp;c=2', '/relative', '#anchor', '', 'x&copy=1', 'say &quot;hi&quot;', 'a>b'];

function generate(seed: number): string {
  const { next, pick } = seededRandom(seed);
  const text = () => {
    let out = pick(SPACES);
    const n = 1 + Math.floor(next() * 3);
    for (let i = 0; i < n; i++) out += (next() < 0.2 ? pick(ENTITIES) : pick(WORDS)) + pick(SPACES);
    return out;
  };
  const attribute = (name: string) => {
    const value = pick(ATTRIBUTE_VALUES);
    const quote = pick(['"', "'", '"', value === '' || /[\s"'=<>`&]/.test(value) ? '"' : '']);
    return ` ${next() < 0.2 ? name.toUpperCase() : name}=${quote}${value}${quote}`;
  };
  const inline = (depth: number, inLink: boolean): string => {
    let out = '';
    const n = Math.floor(next() * 4);
    for (let i = 0; i < n; i++) {
      const r = next();
      if (r < 0.45 || depth > 2) out += text();
      else if (r < 0.55) out += pick(['<br>', '<br/>', '<br />', '<BR>']);
      else if (r < 0.7 && !inLink) {
        const attributes = ['href', 'title', 'rel', 'target'].filter(() => next() < 0.5).map(attribute).join('');
        out += `<a${attributes}>${inline(depth + 1, true)}</a>`;
      } else {
        const tag = pick(FORMATS);
        out += `<${tag}>${inline(depth + 1, inLink)}</${tag}>`;
      }
    }
    return out;
  };
  const block = (): string => {
    const r = next();
    if (r < 0.35) return `<p>${inline(0, false)}</p>`;
    if (r < 0.45) {
      const tag = pick(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'H2']);
      return `<${tag}${next() < 0.2 ? ' id="part-1"' : ''}>${inline(0, false)}</${tag}>`;
    }
    if (r < 0.55) {
      const parts = Array.from({ length: Math.floor(next() * 3) }, () => (next() < 0.5 ? `<p>${inline(0, false)}</p>` : inline(0, false)));
      return `<blockquote>${parts.join(pick(SPACES))}</blockquote>`;
    }
    if (r < 0.75) {
      const tag = pick(['ul', 'ol']);
      const items = Array.from({ length: Math.floor(next() * 4) }, () => `<li>${inline(0, false)}</li>`);
      return `<${tag}>${pick(SPACES)}${items.join(pick(SPACES))}${pick(SPACES)}</${tag}>`;
    }
    if (r < 0.85) {
      const cls = pick(['', '', ' class="language-JS"', ' class="lang-ruby other"', ' class="x"']);
      const code = pick(['', 'const a = 1;\n  b &lt; c;\n\tx', '&amp;&copy x\n\n', '  indented  ']);
      return next() < 0.5 ? `<pre><code${cls}>${code}</code></pre>` : `<pre${cls}><code>${code}</code></pre>`;
    }
    if (r < 0.93) {
      const src = pick(['https://example.com/images/1.jpg', 'https://example.com/a b.jpg', 'HTTPS://EXAMPLE.com/x.jpg', '/relative.jpg', 'https://example.com/i.jpg?x=1&amp;y=2', 'https://example.com:443/p.png', 'https://example.com/ünï.jpg']);
      const attributes = [`src="${src}"`, next() < 0.6 ? `alt="${pick(['Figure 1', '', 'a &amp; b', '"q"'])}"` : '', next() < 0.3 ? `title="${pick(['T', ''])}"` : ''];
      const caption = pick(['', '<figcaption>Figure 1</figcaption>', "<figcaption>It's (mostly) fine: yes.</figcaption>", '<figcaption>two  spaces</figcaption>', '<figcaption> edge</figcaption>', '<figcaption>a &amp; b</figcaption>', '<figcaption><b>bold</b></figcaption>', '<figcaption></figcaption>']);
      return `<figure><img ${attributes.filter(Boolean).join(' ')}${pick(['', '/', ' /'])}>${caption}</figure>`;
    }
    return pick(['<hr>', '<hr/>', '<HR>']);
  };
  const blocks = Array.from({ length: 1 + Math.floor(next() * 5) }, block);
  let html = blocks.join(pick(['', '', ' ', '\n', '\n\n  ']));
  // Broken variants: a parser repairs these (or they are text), the direct converter must refuse or agree.
  const breakage = next();
  if (breakage < 0.05) html = html.replace(/<\/(p|li|b|strong|em|a)>/i, '');
  else if (breakage < 0.1) html = html.replace(/<\/(b|strong|em|i|a)>(.*?)<\/(p|li|h2)>/i, '$2</$3></$1>');
  else if (breakage < 0.13) html = `${pick(['text ', '<b>x</b>', '<!-- c -->', '<br>', '<span>s</span>', '< 3 '])}${html}`;
  else if (breakage < 0.16) html = html.replace('</p>', '<p>inner</p></p>');
  return html;
}

describe('directLexicalChildren', () => {
  it("gives Ghost's lexical for every generated document it accepts, and accepts most of them", () => {
    let accepted = 0;
    const total = 600;
    for (let seed = 1; seed <= total; seed++) {
      const html = generate(seed);
      const children = directLexicalChildren(html.trim());
      if (children === null) continue;
      accepted++;
      expect(root(children), `seed ${seed}: ${html}`).toBe(JSON.stringify(ghostHtmlToLexical(html)));
    }
    expect(accepted).toBeGreaterThan(total * 0.5);
  }, 180_000);

  it("gives Ghost's lexical for the content corpus's html it accepts", () => {
    const corpus = allPostCases.flatMap((c) => [c.input.html, c.ghost.read.html].filter((html): html is string => Boolean(html)));
    let accepted = 0;
    for (const html of corpus) {
      const children = directLexicalChildren(html.trim());
      if (children === null) continue;
      accepted++;
      expect(root(children), html.slice(0, 120)).toBe(JSON.stringify(ghostHtmlToLexical(html)));
    }
    expect(accepted).toBeGreaterThanOrEqual(2);
  });

  it('accepts the plain parts of a large imported post, and refuses what it does not know', () => {
    const prose = `<p>${'The quick brown fox jumps over the lazy dog while the editor keeps typing. '.repeat(12)}</p>`;
    const section =
      `<h2>Part 1: notes</h2><p>The <strong>quick</strong> brown fox, and a <a href="https://example.com/articles/1">link</a>. </p>` +
      `<ul><li>First point</li><li>Second, with <code>inline code</code></li></ul><blockquote>A quotation.</blockquote>` +
      `<figure><img src="https://example.com/images/1.jpg" alt="Figure 1"><figcaption>Figure 1</figcaption></figure>` +
      `<pre><code>const part = 1;\nconsole.log(part * 2);</code></pre><p>${'Another paragraph closes the section. '.repeat(3)}</p>`;
    const lists = '<ul><li>a</li></ul>'.repeat(3) + '<ol><li>b</li></ol>\n<ol><li>c</li><li>d</li></ol><ul><li>e</li></ul>';
    for (const html of [prose.repeat(50), section.repeat(20), lists]) {
      expect(directLexicalChildren(html)).not.toBeNull();
      expect(JSON.stringify(htmlToLexicalDocument(html))).toBe(JSON.stringify(ghostHtmlToLexical(html)));
    }
    for (const html of [
      '<p>a<p>b</p>',
      '<p><b>x</p></b>',
      '<ul><li>a<li>b</ul>',
      '<ol start="3"><li>c</li></ol>',
      '<ul><li>a<ul><li>nested</li></ul></li></ul>',
      '<p style="text-align:center">x</p>',
      '<figure><img src="a.jpg"></figure>',
      '<figure><img src="https://example.com/a.jpg" width="600"></figure>',
      '<figure><img src="https://example.com/a.jpg"><figcaption><b>x</b></figcaption></figure>',
      '<!--kg-card-begin: html--><p>x</p><!--kg-card-end: html-->',
      '<p>a &#13; b</p>',
      '<p>1 < 2</p>',
      'loose <p>x</p>',
      `<p>${'<b>'.repeat(200)}deep${'</b>'.repeat(200)}</p>`,
    ]) {
      expect(directLexicalChildren(html), html).toBeNull();
    }
  });

  it('fails when one output field differs', () => {
    // The comparison above is byte for byte: a changed field in any node is a failure.
    const html = '<p>a <b>b</b></p><ul><li>x</li></ul>';
    const children = directLexicalChildren(html)!;
    const ghost = JSON.stringify(ghostHtmlToLexical(html));
    expect(root(children)).toBe(ghost);
    const changed = structuredClone(children) as { children: { format: number }[] }[];
    changed[0].children[1].format = 2;
    expect(root(changed)).not.toBe(ghost);
  });
});
