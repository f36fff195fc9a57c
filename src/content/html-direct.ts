import { createRequire } from 'node:module';

/**
 * html → lexical nodes without a DOM or an editor, for the plain markup most of a large imported post is made
 * of: paragraphs, headings, quotes, lists of inline items, `<pre><code>` blocks, rules, figures of one image
 * with a caption of plain words, and inside them text, line breaks, links and the text formats (b, strong, em,
 * i, u, s, sub, sup, code). The result is what Ghost's
 * `@tryghost/kg-html-to-lexical` 1.2.24 gives (parse5, Lexical 0.13.1's `$generateNodesFromDOM` with Koenig's
 * nodes and default transforms): the same tree the parser would build, and on it the same steps Lexical's
 * importers take (whitespace collapsing looks along the line as `convertTextDOMNode` does, text formats are
 * applied in the order of `forChild` maps, adjacent text of one format merges, a quote flattens its paragraphs
 * into double line breaks, lists next to each other of one type merge).
 *
 * Anything else is refused (`null`), and the caller converts with Ghost's path: a tag, attribute or nesting
 * not listed here, an end tag that is not the last open element's (the parser's repairs), an end tag left
 * out, comments, `<` that is not a tag, control characters other than tab and newline, nested lists.
 * html-direct.test.ts compares it with Ghost's converter on every generated document it accepts.
 */
const require = createRequire(import.meta.url);

// parse5's own `entities` (its tokenizer decodes with this package's tables: legacy names without `;` in text,
// not before `=` or an alphanumeric in attribute values).
const { decodeHTML, decodeHTMLAttribute } = createRequire(require.resolve('parse5'))('entities/decode') as {
  decodeHTML: (text: string) => string;
  decodeHTMLAttribute: (text: string) => string;
};

export interface TextJson {
  detail: 0;
  format: number;
  mode: 'normal';
  style: '';
  text: string;
  type: 'extended-text';
  version: 1;
}
export interface LineBreakJson {
  type: 'linebreak';
  version: 1;
}
export interface ElementJson {
  children: LexicalJson[];
  direction: null;
  format: '';
  indent: 0;
  type: string;
  version: 1;
  [field: string]: unknown;
}
export type LexicalJson = TextJson | LineBreakJson | ElementJson | { type: string; version: 1; [field: string]: unknown };

interface TextNode {
  kind: 'text';
  data: string;
  parent: ElementNode;
  index: number;
}
interface ElementNode {
  kind: 'element';
  name: string;
  attributes: Record<string, string>;
  children: DomNode[];
  parent: ElementNode | null;
  index: number;
}
type DomNode = TextNode | ElementNode;

/** Text formats: the element, and the format its importer sets (`b` toggles, the others set if unset). */
const FORMAT_OF: Record<string, string> = { b: 'bold', strong: 'bold', em: 'italic', i: 'italic', u: 'underline', s: 'strikethrough', sub: 'subscript', sup: 'superscript', code: 'code' };
const FORMAT_FLAG: Record<string, number> = { bold: 1, italic: 2, strikethrough: 4, underline: 8, code: 16, subscript: 32, superscript: 64 };
const PHRASING = new Set([...Object.keys(FORMAT_OF), 'a', 'br']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const TOP_BLOCKS = new Set(['p', ...HEADINGS, 'blockquote', 'ul', 'ol', 'pre', 'hr', 'figure']);
/** Attributes each element may carry (none of Lexical's or Koenig's importers reads `id`). */
const ATTRIBUTES: Record<string, Set<string>> = {
  a: new Set(['href', 'title', 'rel', 'target', 'id']),
  pre: new Set(['class', 'id']),
  code: new Set(['class', 'id']),
  img: new Set(['src', 'alt', 'title']),
  figure: new Set(),
};
const ID_ONLY = new Set(['id']);
/** Lexical's `inlineParents`: elements a line of text runs through when collapsing whitespace. */
const INLINE_PARENTS = /^(a|abbr|acronym|b|cite|code|del|em|i|ins|kbd|label|output|q|ruby|s|samp|span|strong|sub|sup|time|u|tt|var)$/;

const START_TAG = /<([a-zA-Z][a-zA-Z0-9]*)((?:[ \t\n]+[a-zA-Z][a-zA-Z-]*(?:[ \t\n]*=[ \t\n]*(?:"[^"<]*"|'[^'<]*'|[^ \t\n"'=<>`]+))?)*)[ \t\n]*(\/?)>/y;
const ATTRIBUTE = /([a-zA-Z][a-zA-Z-]*)(?:[ \t\n]*=[ \t\n]*(?:"([^"]*)"|'([^']*)'|([^ \t\n"'=<>`]+)))?/g;
const END_TAG = /<\/([a-zA-Z][a-zA-Z0-9]*)[ \t\n]*>/y;
// Control characters an HTML parser or Lexical's whitespace handling treat specially (CR, FF, NUL, …).
const ODD_CHARACTERS = /[\0-\x08\x0b-\x1f\x7f]/;
const WHITESPACE_ONLY = /^[ \t\n]*$/;
const MAX_DEPTH = 100;
const COLLAPSIBLE = /[\t\n]| {2}/;
/**
 * A caption of words: the image card stores its markup cleaned (kg-clean-basic-html), which for these
 * characters, single-spaced and not at the edges, is the text itself.
 */
const FIGCAPTION = /^<figcaption>([A-Za-z0-9](?:[A-Za-z0-9.,:;!?()'-]| (?! ))*(?<! ))<\/figcaption><\/figure>/;

/**
 * An absolute http(s) URL that the URL parser leaves as it is: jsdom's `img.src` resolves the attribute
 * (against about:blank), which gives such a URL back unchanged.
 */
function isPlainUrl(src: string | undefined): src is string {
  if (src === undefined || !/^https?:\/\//.test(src) || !URL.canParse(src)) return false;
  return new URL(src).href === src;
}

/**
 * The lexical root's children for `html` (already trimmed as Ghost trims it), or null when it is not ours.
 * Each top-level block is converted while the rest is still being parsed, and let go once no later block's
 * conversion can look at it (TopLevelConversion): the tree of a whole 12 MB post never lives at once beside its
 * lexical, which made most of the conversion's garbage-collection time (issue 29).
 */
export function directLexicalChildren(html: string): LexicalJson[] | null {
  const conversion = new TopLevelConversion();
  const body = parse(html, (top) => conversion.convertCompleted(top));
  return body && conversion.convertRest(body) ? conversion.out : null;
}

/**
 * Converts the body's children in order. Converting child k reads its neighbours k-2 to k+2 (findTextInLine
 * looks past a whitespace text at the top to the block beyond it, and stops there), so child k is converted once
 * child k+2 exists, and child k-2 is let go after it: every conversion reads the same nodes as over the whole tree.
 */
class TopLevelConversion {
  readonly out: LexicalJson[] = [];
  private converted = 0;

  /** Converts the children no later sibling can change; false when one is not ours. */
  convertCompleted(body: ElementNode): boolean {
    return this.convertUpTo(body, body.children.length - 2);
  }

  /** Converts the children left once the parse has ended. */
  convertRest(body: ElementNode): boolean {
    return this.convertUpTo(body, body.children.length);
  }

  private convertUpTo(body: ElementNode, end: number): boolean {
    for (; this.converted < end; this.converted++) {
      const nodes = convert(body.children[this.converted], [], null);
      if (nodes === null) return false;
      this.append(nodes);
      // No conversion still to come reads this far back; the slot is left empty so indexes stay as parsed.
      if (this.converted >= 2) delete body.children[this.converted - 2];
    }
    return true;
  }

  private append(nodes: LexicalJson[]): void {
    const out = this.out;
    for (const node of nodes) {
      const previous = out.at(-1);
      // kg-default-transforms' merge of a list into the list before it (ListNode's transform renumbers).
      if (previous && isList(previous) && isList(node) && previous.listType === node.listType) {
        for (const item of node.children as ElementJson[]) {
          item.value = previous.children.length + 1;
          previous.children.push(item);
        }
      } else out.push(node);
    }
  }
}

const isList = (node: LexicalJson): node is ElementJson => node.type === 'list';

/**
 * The tree parse5 builds below `<body>`, for markup whose tree is plain; null for anything else, or when
 * `atTop` (called whenever the parse is back at the top, between blocks) answers false.
 */
function parse(html: string, atTop: (body: ElementNode) => boolean): ElementNode | null {
  const body: ElementNode = { kind: 'element', name: 'body', attributes: {}, children: [], parent: null, index: 0 };
  let open = body;
  let depth = 0;
  let pos = 0;
  while (pos < html.length) {
    if (open === body && !atTop(body)) return null;
    const lt = html.indexOf('<', pos);
    const textEnd = lt < 0 ? html.length : lt;
    if (textEnd > pos && !appendText(open, html.slice(pos, textEnd))) return null;
    if (lt < 0) break;
    const next = html.charCodeAt(lt + 1);
    if (next === 47 /* / */) {
      END_TAG.lastIndex = lt;
      const end = END_TAG.exec(html);
      if (!end || end[1].toLowerCase() !== open.name || open.parent === null) return null;
      open = open.parent;
      depth--;
      pos = END_TAG.lastIndex;
      continue;
    }
    START_TAG.lastIndex = lt;
    const start = START_TAG.exec(html);
    if (!start) return null;
    pos = START_TAG.lastIndex;
    const name = start[1].toLowerCase();
    if (!allowedIn(open, name)) return null;
    const attributes = parseAttributes(name, start[2]);
    if (!attributes) return null;
    const element: ElementNode = { kind: 'element', name, attributes, children: [], parent: open, index: open.children.length };
    if (name === 'br' || name === 'hr') {
      open.children.push(element);
      continue;
    }
    if (start[3]) return null; // `<p/>` opens a `<p>`
    open.children.push(element);
    if (name === 'figure') {
      // Only `<figure><img src alt title><figcaption>words</figcaption></figure>`, the caption optional.
      START_TAG.lastIndex = pos;
      const img = START_TAG.exec(html);
      const imgAttributes = img && img[1].toLowerCase() === 'img' ? parseAttributes('img', img[2]) : null;
      if (!imgAttributes || !isPlainUrl(imgAttributes.src)) return null;
      element.children.push({ kind: 'element', name: 'img', attributes: imgAttributes, children: [], parent: element, index: 0 });
      pos = START_TAG.lastIndex;
      const caption = FIGCAPTION.exec(html.slice(pos, pos + 1024));
      if (caption) {
        element.attributes = { caption: caption[1] };
        pos += caption[0].length - '</figure>'.length;
      }
      if (!html.startsWith('</figure>', pos)) return null;
      pos += '</figure>'.length;
      continue;
    }
    if (name === 'pre') {
      // Only `<pre><code>text</code></pre>`: the code block card reads the text, the rest is not looked at.
      START_TAG.lastIndex = pos;
      const code = START_TAG.exec(html);
      if (!code || code[1].toLowerCase() !== 'code' || code[3]) return null;
      const codeAttributes = parseAttributes('code', code[2]);
      const close = html.indexOf('<', START_TAG.lastIndex);
      if (!codeAttributes || close < 0 || !html.startsWith('</code></pre>', close)) return null;
      const codeElement: ElementNode = { kind: 'element', name: 'code', attributes: codeAttributes, children: [], parent: element, index: 0 };
      element.children.push(codeElement);
      if (close > START_TAG.lastIndex && !appendText(codeElement, html.slice(START_TAG.lastIndex, close))) return null;
      pos = close + '</code></pre>'.length;
      continue;
    }
    open = element;
    // The conversion recurses once a level: deep markup is left to the other path (and its depth limit).
    if (++depth > MAX_DEPTH) return null;
  }
  return open === body ? body : null;
}

function allowedIn(parent: ElementNode, name: string): boolean {
  switch (parent.name) {
    case 'body':
      return TOP_BLOCKS.has(name);
    case 'ul':
    case 'ol':
      return name === 'li';
    case 'blockquote':
      return name === 'p' || PHRASING.has(name);
    default:
      if (!PHRASING.has(name)) return false;
      // An `<a>` inside an `<a>` closes the first (the adoption agency algorithm).
      if (name === 'a') for (let node: ElementNode | null = parent; node; node = node.parent) if (node.name === 'a') return false;
      return true;
  }
}

function parseAttributes(name: string, source: string): Record<string, string> | null {
  const attributes: Record<string, string> = {};
  if (source === '') return attributes;
  const allowed = ATTRIBUTES[name] ?? ID_ONLY;
  for (const [, rawName, double, single, bare] of source.matchAll(ATTRIBUTE)) {
    const attribute = rawName.toLowerCase();
    if (!allowed.has(attribute) || attribute in attributes) return null;
    const raw = double ?? single ?? bare ?? '';
    const value = raw.includes('&') ? decodeHTMLAttribute(raw) : raw;
    if (ODD_CHARACTERS.test(value)) return null;
    attributes[attribute] = value;
  }
  return attributes;
}

function appendText(parent: ElementNode, raw: string): boolean {
  const data = raw.includes('&') ? decodeHTML(raw) : raw;
  if (ODD_CHARACTERS.test(data)) return false;
  // Text directly in the body or a list is only ever the whitespace between blocks.
  if ((parent.name === 'body' || parent.name === 'ul' || parent.name === 'ol') && !WHITESPACE_ONLY.test(data)) return false;
  parent.children.push({ kind: 'text', data, parent, index: parent.children.length });
  return true;
}

/**
 * `$createNodesFromDOM` for one DOM node: its lexical nodes, given the format elements around it (the
 * `forChild` map's keys, in the order they were first set). null: something this converter does not do.
 */
function convert(node: DomNode, formats: string[], parent: ElementNode | null): LexicalJson[] | null {
  if (node.kind === 'text') {
    const text = convertText(node);
    return text === null ? [] : [{ detail: 0, format: formatOf(formats), mode: 'normal', style: '', text, type: 'extended-text', version: 1 }];
  }
  const name = node.name;
  if (name === 'br') return isOnlyChild(node) ? [] : [{ type: 'linebreak', version: 1 }];
  if (name === 'hr') return [{ type: 'horizontalrule', version: 1 }];
  if (name === 'figure') {
    // ImageNode from the figure importer: `img.alt`/`img.title` when not empty, the caption's cleaned markup.
    const { src, alt, title } = (node.children[0] as ElementNode).attributes;
    const caption = node.attributes.caption ?? '';
    return [{ type: 'image', version: 1, src, width: null, height: null, title: title || '', alt: alt || '', caption, cardWidth: 'regular', href: '' }];
  }
  if (name === 'pre') {
    const code = node.children[0] as ElementNode;
    const text = code.children.length > 0 ? (code.children[0] as TextNode).data : '';
    const language = /lang(?:uage)?-(.*?)(?:\s|$)/i.exec(node.attributes.class ?? '') ?? /lang(?:uage)?-(.*?)(?:\s|$)/i.exec(code.attributes.class ?? '');
    return [{ type: 'codeblock', version: 1, code: text, language: language ? language[1].toLowerCase() : '', caption: '' }];
  }
  const childFormats = name in FORMAT_OF && !formats.includes(name) ? [...formats, name] : formats;
  const children: LexicalJson[] = [];
  for (const child of node.children) {
    const nodes = convert(child, childFormats, parent);
    if (nodes === null) return null;
    children.push(...nodes);
  }
  if (name in FORMAT_OF) return children;
  if (name === 'a') {
    if (textContent(node) === '' && !node.children.some((child) => child.kind === 'element')) return children;
    const { href, rel, target, title } = node.attributes;
    return [{ ...element('link', children), rel: rel ?? null, target: target ?? null, title: title ?? null, url: href || '' }];
  }
  if (name === 'p') return [element('paragraph', children)];
  if (HEADINGS.has(name)) return [{ ...element('extended-heading', children), tag: name }];
  if (name === 'blockquote') {
    // ExtendedQuoteNode's `after`: nested paragraphs become runs separated by two line breaks.
    const flat: LexicalJson[] = [];
    for (const child of children) {
      if (child.type === 'paragraph') {
        if (flat.length > 0) flat.push({ type: 'linebreak', version: 1 }, { type: 'linebreak', version: 1 });
        flat.push(...(child as ElementJson).children);
      } else flat.push(child);
    }
    return [element('extended-quote', flat)];
  }
  if (name === 'li') return [{ ...element('listitem', children), value: 0 }];
  if (name === 'ul' || name === 'ol') {
    const items = children as ElementJson[];
    items.forEach((item, i) => (item.value = i + 1));
    return [{ ...element('list', items), listType: name === 'ul' ? 'bullet' : 'number', start: 1, tag: name }];
  }
  return null;
}

/** An element node as Lexical serialises it, its text children normalised (adjacent text of one format merged). */
function element(type: string, children: LexicalJson[]): ElementJson {
  const merged: LexicalJson[] = [];
  for (const child of children) {
    const previous = merged.at(-1);
    if (previous && previous.type === 'extended-text' && child.type === 'extended-text' && (previous as TextJson).format === (child as TextJson).format) {
      merged[merged.length - 1] = { ...(previous as TextJson), text: (previous as TextJson).text + (child as TextJson).text };
    } else merged.push(child);
  }
  return { children: merged, direction: null, format: '', indent: 0, type, version: 1 };
}

/** The format the `forChild` functions of the format elements around a text give it, in their order. */
function formatOf(formats: string[]): number {
  let format = 0;
  for (const name of formats) {
    const type = FORMAT_OF[name];
    if (name === 'b' || (format & FORMAT_FLAG[type]) === 0) {
      format ^= FORMAT_FLAG[type];
      if (type === 'subscript') format &= ~FORMAT_FLAG.superscript;
      else if (type === 'superscript') format &= ~FORMAT_FLAG.subscript;
    }
  }
  return format;
}

/** Lexical's `convertTextDOMNode` outside `<pre>`: collapsed whitespace, edges trimmed along the line. */
function convertText(node: TextNode): string | null {
  // Most text has nothing to collapse: the replace would copy it for nothing.
  let text = COLLAPSIBLE.test(node.data) ? node.data.replace(/[ \t\n]+/g, ' ') : node.data;
  if (text === '') return null;
  if (text[0] === ' ') {
    let previous: TextNode | null = node;
    let isStartOfLine = true;
    while (previous !== null && (previous = findTextInLine(previous, false)) !== null) {
      if (previous.data.length > 0) {
        if (/[ \t\n]$/.test(previous.data)) text = text.slice(1);
        isStartOfLine = false;
        break;
      }
    }
    if (isStartOfLine) text = text.slice(1);
  }
  if (text[text.length - 1] === ' ') {
    let next: TextNode | null = node;
    let isEndOfLine = true;
    while (next !== null && (next = findTextInLine(next, true)) !== null) {
      if (next.data.replace(/^( |\t|\r?\n)+/, '').length > 0) {
        isEndOfLine = false;
        break;
      }
    }
    if (isEndOfLine) text = text.slice(0, text.length - 1);
  }
  return text === '' ? null : text;
}

const siblingOf = (node: DomNode, forward: boolean): DomNode | null =>
  node.parent === null ? null : (node.parent.children[forward ? node.index + 1 : node.index - 1] ?? null);

/** Lexical's `findTextInLine`: the next text node along the line (through inline elements), or null. */
function findTextInLine(text: TextNode, forward: boolean): TextNode | null {
  let node: DomNode = text;
  for (;;) {
    let sibling: DomNode | null;
    while ((sibling = siblingOf(node, forward)) === null) {
      // Above the body: its siblings are `<head>` and nothing, neither of which continues a line.
      if (node.parent === null || node.parent.parent === null) return null;
      node = node.parent;
    }
    node = sibling;
    if (node.kind === 'element' && !INLINE_PARENTS.test(node.name)) return null;
    while (node.kind === 'element' && node.children.length > 0) node = node.children[forward ? 0 : node.children.length - 1];
    if (node.kind === 'text') return node;
    if (node.name === 'br') return null;
  }
}

/** LineBreakNode's importer: a `<br>` alone in its element (but for whitespace) is dropped. */
function isOnlyChild(node: ElementNode): boolean {
  const siblings = node.parent!.children;
  const isWhitespace = (n: DomNode | undefined) => n !== undefined && n.kind === 'text' && /^( |\t|\r?\n)+$/.test(n.data);
  const first = siblings[0] === node || (siblings[1] === node && isWhitespace(siblings[0]));
  const last = siblings.at(-1) === node || (siblings.at(-2) === node && isWhitespace(siblings.at(-1)));
  return first && last;
}

function textContent(node: DomNode): string {
  return node.kind === 'text' ? node.data : node.children.map(textContent).join('');
}
