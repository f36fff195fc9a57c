import { headingIdGenerator } from './ghost-libs.js';
import { escapeAttribute, escapeText, hasLoneSurrogate } from './html-escape.js';
import { codeBlockHtml, imageCardHtml } from './render-cards.js';

/**
 * The html Ghost's lexical renderer (`@tryghost/kg-lexical-html-renderer` 1.3.24) writes for a top-level node of
 * plain text markup (paragraphs, headings, quotes, asides, lists, text formats, links, line breaks, rules), and
 * for image and code cards (render-cards.ts), written straight to a string. Ghost's renderer builds a Lexical node
 * for every node of the document and a jsdom element for every text run and tag to serialise it, which for a post
 * of many MB is most of its render time and hundreds of MB. A node of any other kind, or one whose rendering
 * depends on something not reproduced here (text modes, empty text runs Lexical removes, link text the html parser
 * would change), is not accepted: the caller renders it with Ghost's renderer. render-plain.test.ts compares both
 * on the content corpus and generated documents.
 *
 * What is reproduced: Lexical merges adjacent plain text runs of the same format and style before rendering;
 * Ghost's TextContent opens format tags in its own order (sorted by the next run that still has each format) and
 * closes them by popping the innermost open tag once per format the next run lacks; text is escaped as jsdom
 * serialises it; a link's inner html is set through `innerHTML`, i.e. parsed again (so `\r` and NUL would change:
 * those are not accepted); heading ids come from Ghost's own generator and share the document's
 * `usedIdAttributes`.
 */

type Json = Record<string, unknown>;

/** Lexical 0.13's text format bits, in the order Ghost's FORMAT_TAG_MAP lists them. */
const FORMATS: readonly (readonly [bit: number, tag: string])[] = [
  [1, 'strong'], // bold
  [2, 'em'], // italic
  [4, 's'], // strikethrough
  [8, 'u'], // underline
  [16, 'code'], // code
  [32, 'sub'], // subscript
  [64, 'sup'], // superscript
  [128, 'mark'], // highlight
];

const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** An inline node after Lexical's text normalisation. */
type Inline = { kind: 'text'; text: string; format: number } | { kind: 'br' } | { kind: 'link'; url: unknown; rel: unknown; html: string };

const notPlain = new Error('not plain markup');
const refuse = (): never => {
  throw notPlain;
};

/**
 * For one top-level node: null when it is not plain markup or a card render-cards.ts writes (render it with
 * Ghost's renderer), else a function writing its html. A heading takes its id from the document's
 * `usedIdAttributes` (recording it) only when that function is called, so the caller can keep ids in document
 * order around nodes Ghost's renderer writes. `siteUrl` is the render's (image cards' srcset depends on it).
 */
export function plainTopLevel(node: unknown, siteUrl?: string): ((usedIdAttributes: Record<string, number>) => string) | null {
  try {
    return topLevel(node as Json, siteUrl);
  } catch (err) {
    if (err === notPlain) return null;
    throw err;
  }
}

let generateId: ReturnType<typeof headingIdGenerator> | undefined;

function topLevel(node: Json, siteUrl: string | undefined): (usedIdAttributes: Record<string, number>) => string {
  if (node === null || typeof node !== 'object') throw notPlain;
  let html: string;
  switch (node.type) {
    case 'paragraph':
      html = `<p>${inlineHtml(node)}</p>`;
      break;
    case 'heading':
    case 'extended-heading': {
      const tag = node.tag;
      if (typeof tag !== 'string' || !HEADING_TAGS.has(tag)) throw notPlain;
      const inner = inlineHtml(node);
      const text = inlineText(node);
      // slugify's encodeURIComponent throws on a lone surrogate (Ghost's renderer then swallows the error).
      if (hasLoneSurrogate(text)) throw notPlain;
      generateId ??= headingIdGenerator();
      const idOf = generateId;
      return (usedIdAttributes) => `<${tag} id="${idOf(text, { usedIdAttributes })}">${inner}</${tag}>`;
    }
    case 'quote':
    case 'extended-quote':
      html = `<blockquote>${inlineHtml(node)}</blockquote>`;
      break;
    case 'aside':
      html = `<blockquote class="kg-blockquote-alt">${inlineHtml(node)}</blockquote>`;
      break;
    case 'list':
      html = listHtml(node);
      break;
    case 'horizontalrule':
      if (Object.keys(node).some((key) => key !== 'type' && key !== 'version')) throw notPlain;
      html = '<hr>';
      break;
    case 'image':
      html = imageCardHtml(node, siteUrl) ?? refuse();
      break;
    case 'codeblock':
      html = codeBlockHtml(node) ?? refuse();
      break;
    default:
      throw notPlain;
  }
  return () => html;
}

/**
 * Ghost's exportList: a list item whose first child is a list writes that list inside the item before it
 * (no `<li>` of its own); any other item is `<li>` and its inline content.
 */
function listHtml(node: Json): string {
  const listType = node.listType;
  if (listType !== 'bullet' && listType !== 'number') throw notPlain;
  const start = node.start;
  if (!(start === undefined || start === null || Number.isSafeInteger(start))) throw notPlain;
  const tag = listType === 'number' ? 'ol' : 'ul';
  const items = childrenOf(node);
  let out = '';
  let liOpen = false;
  for (const item of items) {
    if (item === null || typeof item !== 'object' || item.type !== 'listitem') throw notPlain;
    const itemChildren = childrenOf(item);
    const first = itemChildren[0] as Json | undefined;
    if (first !== undefined && first !== null && typeof first === 'object' && first.type === 'list') {
      if (itemChildren.length !== 1) throw notPlain;
      out += listHtml(first);
      if (liOpen) {
        out += '</li>';
        liOpen = false;
      }
    } else {
      if (liOpen) out += '</li>';
      out += `<li>${inlineHtml(item)}`;
      liOpen = true;
    }
  }
  if (liOpen) out += '</li>';
  // `start` is never undefined on Lexical's node (its constructor defaults it to 1).
  return start !== undefined && start !== 1 && start !== null ? `<${tag} start="${start}">${out}</${tag}>` : `<${tag}>${out}</${tag}>`;
}

function childrenOf(node: Json): Json[] {
  if (!Array.isArray(node.children)) throw notPlain;
  return node.children as Json[];
}

/** The text runs, line breaks and links of an element, normalised as Lexical does before rendering. */
function inlines(node: Json, insideLink: boolean): Inline[] {
  const out: Inline[] = [];
  // Style only decides which runs Lexical merges; it is not rendered.
  let lastStyle: unknown = null;
  for (const child of childrenOf(node)) {
    if (child === null || typeof child !== 'object') throw notPlain;
    switch (child.type) {
      case 'text':
      case 'extended-text': {
        const { text, format, style, mode, detail } = child;
        // An empty run is removed by Lexical (and an emptied link with it); other modes and details are not merged.
        if (typeof text !== 'string' || text === '') throw notPlain;
        if (typeof format !== 'number' || !Number.isInteger(format) || format < 0 || format > 255) throw notPlain;
        if (mode !== 'normal' || !(detail === 0 || detail === undefined)) throw notPlain;
        if (typeof style !== 'string') throw notPlain;
        // Re-parsed as a link's innerHTML, `\r` becomes `\n` and NUL is dropped.
        if (insideLink && (/[\r\0]/.test(text) || hasLoneSurrogate(text))) throw notPlain;
        const last = out[out.length - 1];
        if (last?.kind === 'text' && last.format === format && lastStyle === style) last.text += text;
        else out.push({ kind: 'text', text, format });
        lastStyle = style;
        continue;
      }
      case 'linebreak':
        out.push({ kind: 'br' });
        break;
      case 'link': {
        if (insideLink) throw notPlain;
        const { url, rel } = child;
        if (typeof url !== 'string' || !(rel === null || rel === undefined || typeof rel === 'string')) throw notPlain;
        const children = inlines(child, true);
        if (children.length === 0) throw notPlain;
        out.push({ kind: 'link', url, rel, html: textContentHtml(children) });
        break;
      }
      default:
        throw notPlain;
    }
    lastStyle = null;
  }
  return out;
}

function inlineHtml(node: Json): string {
  return textContentHtml(inlines(node, false));
}

/** Lexical's getTextContent of an element made of inline nodes (a line break is `\n`). */
function inlineText(node: Json): string {
  let text = '';
  for (const child of childrenOf(node)) {
    if (child.type === 'linebreak') text += '\n';
    else if (child.type === 'link') text += inlineText(child);
    else text += child.text as string;
  }
  return text;
}

/** Ghost's TextContent.render(), tag for tag. */
function textContentHtml(nodes: Inline[]): string {
  let out = '';
  const open: number[] = []; // format bits of the open tags, outermost first
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (node.kind === 'br') {
      out += '<br>';
      continue;
    }
    if (node.kind === 'link') {
      out += '<a';
      if (node.url) out += ` href="${escapeAttribute(node.url as string)}"`;
      if (node.rel) out += ` rel="${escapeAttribute(node.rel as string)}"`;
      out += `>${node.html}</a>`;
      continue;
    }
    if (node.format === 0) {
      out += escapeText(node.text);
      continue;
    }
    const toOpen = FORMATS.filter(([bit]) => (node.format & bit) !== 0 && !open.includes(bit)).map(([bit]) => bit);
    if (toOpen.length > 1) {
      // Ghost sorts by where each format next appears among the text runs before the next link, with a
      // comparator that is not a consistent order: the same comparator on the same sort gives the same result.
      const upcoming: number[] = [];
      for (let j = i + 1; j < nodes.length; j++) {
        const next = nodes[j];
        if (next.kind === 'link') break;
        if (next.kind === 'text') upcoming.push(next.format);
      }
      const firstWith = (bit: number) => upcoming.findIndex((format) => (format & bit) !== 0);
      toOpen.sort((a, b) => {
        const aIndex = firstWith(a);
        const bIndex = firstWith(b);
        if (aIndex === -1) return 1;
        if (bIndex === -1) return -1;
        return aIndex - bIndex;
      });
    }
    for (const bit of toOpen) {
      out += `<${tagOf(bit)}>`;
      open.push(bit);
    }
    out += escapeText(node.text);
    let next: Inline | undefined;
    for (let j = i + 1; j < nodes.length && next === undefined; j++) if (nodes[j].kind !== 'br') next = nodes[j];
    // Ghost checks each open format but closes the innermost tag for each one the next run lacks.
    let closing = 0;
    for (const bit of open) if (next === undefined || next.kind !== 'text' || (next.format & bit) === 0) closing++;
    for (; closing > 0; closing--) out += `</${tagOf(open.pop()!)}>`;
  }
  for (let k = open.length - 1; k >= 0; k--) out += `</${tagOf(open[k])}>`;
  return out;
}

function tagOf(bit: number): string {
  return FORMATS.find(([b]) => b === bit)![1];
}
