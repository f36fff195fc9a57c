/**
 * Cuts a large html document into pieces between its top-level blocks, so each piece can go through Ghost's
 * html → lexical converter on its own (and on several worker threads at once). The converter inserts every
 * top-level node with a walk along its siblings, so its time grows with the square of their number: a 12 MB
 * post of headings, lists and paragraphs did not finish within the worker deadline in one piece. Pieces of a
 * few hundred blocks convert in time proportional to their size.
 *
 * A cut is made only where converting the two sides apart must give the same document as converting them
 * together, i.e. where an HTML parser is at the top level of `<body>` with nothing open:
 * - after the end tag of a block element (p, h1–h6, lists, quotes, figures, …) opened at the top level, or a
 *   top-level `<hr>`, and before the start tag of another, with only whitespace between them;
 * - never between two lists (the converter merges a list into the one before it);
 * - never inside a `<!--kg-card-begin: …-->` … `<!--kg-card-end: …-->` pair (Ghost's html and markdown cards
 *   span sibling nodes), nor beside top-level text or a comment (which the converter groups with neighbours);
 * - and only while every end tag so far closed the element opened last: after a misnested or implied end
 *   (`<p><b>x</p>`, `<li>` without `</li>`), the parser's recovery (open formatting elements carried into the
 *   next block) depends on what came before, so the rest of the document stays in one piece.
 * Raw-text elements (`script`, `style`, `textarea`, …) are skipped whole. Anything this scan does not
 * understand only costs speed: the piece goes on until the next safe cut, or the document stays whole.
 */

/** Elements the converter turns into top-level blocks of their own. */
const BLOCKS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'blockquote', 'figure', 'pre', 'div', 'table',
  'section', 'article', 'aside', 'header', 'footer', 'nav', 'address', 'details', 'hr',
]);

const LISTS = new Set(['ul', 'ol']);

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** Elements whose content is text up to their own end tag, never markup. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

// A comment, a doctype/processing instruction, or a start or end tag (attribute values may hold `>`).
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<[!?][^>]*>?|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:"[^"]*"|'[^']*'|[^'">])*)(>?)/g;

export interface HtmlPieceLimits {
  /** A piece is cut at the first safe place after it reaches this many characters. */
  maxChars: number;
  /** … or this many top-level blocks. */
  maxBlocks: number;
}

export const DEFAULT_PIECE_LIMITS: HtmlPieceLimits = { maxChars: 192 * 1024, maxBlocks: 300 };

/** The document in pieces that convert to the same lexical as the whole; one piece when there is no safe cut. */
export function splitHtmlAtBlocks(html: string, limits: HtmlPieceLimits = DEFAULT_PIECE_LIMITS): string[] {
  const bounds = [0, ...htmlBlockCuts(html, limits), html.length];
  return bounds.slice(1).map((end, i) => html.slice(bounds[i], end));
}

/** Where splitHtmlAtBlocks cuts: offsets into `html`, ascending; none when it stays whole. */
export function htmlBlockCuts(html: string, limits: HtmlPieceLimits = DEFAULT_PIECE_LIMITS): number[] {
  const cuts: number[] = [];
  const open: string[] = [];
  let pieceStart = 0;
  let blocks = 0;
  let inCard = false;
  // Where a cut may go: right after a closed top-level block, if the next thing is a block's start tag.
  let cutAfter = -1;
  let lastBlock = '';
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(html); match; match = TOKEN.exec(html)) {
    const start = match.index;
    const [token, slash, rawName, , closed] = match;
    // Text before this token at the top level (not whitespace) is grouped with its neighbours: no cut there.
    if (cutAfter >= 0 && open.length === 0 && /\S/.test(html.slice(cutAfter, start))) cutAfter = -1;
    if (rawName === undefined) {
      if (token.startsWith('<!--')) {
        if (/^<!--\s*kg-card-begin:/.test(token)) inCard = true;
        else if (/^<!--\s*kg-card-end:/.test(token)) inCard = false;
      }
      if (open.length === 0) cutAfter = -1;
      continue;
    }
    if (!closed) return cuts; // a tag cut off by the end of the document
    const name = rawName.toLowerCase();
    if (slash) {
      if (open.at(-1) !== name) return cuts; // misnested or implied end
      open.pop();
      if (open.length === 0 && BLOCKS.has(name) && !inCard) {
        blocks++;
        cutAfter = start + token.length;
        lastBlock = name;
      }
      continue;
    }
    // A start tag.
    if (open.length === 0) {
      const listAfterList = LISTS.has(name) && LISTS.has(lastBlock);
      if (cutAfter >= 0 && BLOCKS.has(name) && !listAfterList && (cutAfter - pieceStart >= limits.maxChars || blocks >= limits.maxBlocks)) {
        cuts.push(cutAfter);
        pieceStart = cutAfter;
        blocks = 0;
      }
      cutAfter = -1;
    }
    if (RAW_TEXT.has(name)) {
      const endTag = new RegExp(`</${name}`, 'ig');
      endTag.lastIndex = start + token.length;
      const end = endTag.exec(html);
      if (!end) return cuts;
      TOKEN.lastIndex = end.index;
      open.push(name);
      continue;
    }
    if (VOID.has(name)) {
      if (open.length === 0 && name === 'hr' && !inCard) {
        blocks++;
        cutAfter = start + token.length;
        lastBlock = name;
      }
      continue;
    }
    // `<div/>` is an open `<div>` to an HTML parser; tracked as such, its missing end keeps the rest whole.
    open.push(name);
  }
  return cuts;
}

/**
 * The converter's document around the top-level nodes of every piece (each piece's as JSON text without its
 * brackets, from render.ts's htmlPieceToLexicalNodes): its root is the same for any input.
 */
export function lexicalOfPieces(nodes: string[]): string {
  return `{"root":{"children":[${nodes.filter((n) => n !== '').join(',')}],"direction":null,"format":"","indent":0,"type":"root","version":1}}`;
}
