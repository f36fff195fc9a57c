import { errors } from '../errors.js';

/**
 * Checks on `?source=html` input made on the request's thread before any conversion: Ghost's converters
 * (jsdom, then a recursive walk) spend time and stack that grow fast with nesting: 8,000 nested `<div>`s
 * (88 KB) take 30-45 s of a thread on Ghost and here, 100,000 never finish. Ghost answers such a post 422
 * `Failed to convert HTML to Mobiledoc` once its converter gives up; we answer the same at once above
 * HTML_MAX_DEPTH levels.
 */
export const HTML_MAX_DEPTH = 1000;

/** Elements that never have content. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr', 'keygen', 'frame']);
/** Elements whose text is not markup: skipped to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
/**
 * Elements whose end tag HTML lets one leave out, with the open elements that a new one closes: ten `<p>`s
 * or `<li>`s without end tags are siblings, not ten levels.
 */
const CLOSES: Record<string, readonly string[]> = {
  p: ['p'],
  li: ['li'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
  tr: ['tr', 'td', 'th'],
  td: ['td', 'th'],
  th: ['td', 'th'],
  option: ['option'],
  optgroup: ['optgroup', 'option'],
  thead: ['tbody', 'tfoot', 'tr', 'td', 'th'],
  tbody: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'],
  tfoot: ['thead', 'tbody', 'tr', 'td', 'th'],
  rt: ['rt', 'rp'],
  rp: ['rt', 'rp'],
};
/** Block elements close an open `<p>` (`<p>text<div>` is a paragraph followed by a div). */
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'main',
  'nav',
  'ol',
  'pre',
  'section',
  'table',
  'ul',
]);

// A tag: its name, then attributes (quoted values may hold `>`), then `>`.
const TAG = /<(\/?)([a-zA-Z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;

/**
 * How deeply the elements of `html` nest, as an HTML parser would build them (omitted end tags, void
 * elements and stray end tags accounted for); counting stops once it passes `stopAbove`.
 */
export function htmlNestingDepth(html: string, stopAbove = Infinity): number {
  const open: string[] = [];
  let deepest = 0;
  let at = html.indexOf('<');
  while (at !== -1) {
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4);
      if (end === -1) break;
      at = html.indexOf('<', end + 3);
      continue;
    }
    TAG.lastIndex = at;
    const match = TAG.exec(html);
    if (!match) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    const [, closing, rawName, rest] = match;
    const name = rawName!.toLowerCase();
    let next = TAG.lastIndex;
    if (closing) {
      const index = open.lastIndexOf(name);
      if (index !== -1) open.length = index;
    } else if (!VOID.has(name) && !rest!.trimEnd().endsWith('/')) {
      const closes = CLOSES[name];
      while (open.length > 0 && ((closes && closes.includes(open.at(-1)!)) || (open.at(-1) === 'p' && CLOSES_P.has(name)))) open.pop();
      if (RAW_TEXT.has(name)) {
        const end = new RegExp(`</${name}`, 'ig');
        end.lastIndex = next;
        next = end.exec(html)?.index ?? html.length;
      } else {
        open.push(name);
        if (open.length > deepest) deepest = open.length;
        if (deepest > stopAbove) return deepest;
      }
    }
    at = html.indexOf('<', next);
  }
  forgetLastMatch();
  return deepest;
}

/**
 * V8 keeps the subject of the last successful regular-expression match alive (for `RegExp.lastMatch`): after the
 * loop above that is the whole html source, 12 MB held until some other match on this thread replaces it. A
 * match on an empty string lets it go once the write has converted it.
 */
const forgetLastMatch = () => /^/.exec('');

/** Ghost's 422 for html its converter cannot take, answered before converting when it nests too deeply. */
export function assertConvertibleHtml(html: string): void {
  if (htmlNestingDepth(html, HTML_MAX_DEPTH) > HTML_MAX_DEPTH) {
    throw errors.validation({ message: 'Failed to convert HTML to Mobiledoc' });
  }
}
