import { escapeAttribute, escapeText, hasLoneSurrogate } from './html-escape.js';
import { IMAGE_OPTIMIZATION, canTransformImage } from './render-options.js';

/**
 * The html of the image and code cards as `@tryghost/kg-default-nodes` 2.0.1's renderers write it for the web
 * (Ghost 5.130.6 overrides neither), written straight to a string: Ghost's renderer builds a Lexical node and
 * jsdom elements for each card, which for an imported post of thousands of figures and code blocks is seconds.
 * null for a card whose html depends on something not reproduced here; the caller then renders it with
 * Ghost's renderer. render-plain.test.ts compares both.
 *
 * What is reproduced: the card's fields as its Lexical node reads them (`value || default`, so `0`, `''` and
 * null all mean the default); attributes in the order the renderer sets them; image width/height, resizing
 * past `defaultMaxWidth`, `srcset` of local and Unsplash images and `sizes`, as the renderer computes them from
 * IMAGE_OPTIMIZATION and canTransformImage; a caption is set through `innerHTML`, so it is written as is only
 * when parsing and serialising it again gives it back unchanged (canonicalCaption), else refused.
 */

type Json = Record<string, unknown>;

/** A field as the card's Lexical node holds it: its constructor keeps `data[name] || default`. */
function stringField(node: Json, name: string, fallback = ''): string | null {
  const value = node[name] || fallback;
  return typeof value === 'string' ? value : null;
}

/** Width or height: null when unset; refused (undefined) unless a positive whole number, as editors store them. */
function dimensionField(node: Json, name: string): number | null | undefined {
  const value = node[name] || null;
  if (value === null) return null;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** An image card (`type: 'image'`) as kg-default-nodes' renderImageNode writes it for the web. */
export function imageCardHtml(node: Json, siteUrl: string | undefined): string | null {
  const src = stringField(node, 'src');
  const caption = stringField(node, 'caption');
  const title = stringField(node, 'title');
  const alt = stringField(node, 'alt');
  const cardWidth = stringField(node, 'cardWidth', 'regular');
  const href = stringField(node, 'href');
  const width = dimensionField(node, 'width');
  const height = dimensionField(node, 'height');
  if (src === null || caption === null || title === null || alt === null || cardWidth === null || href === null) return null;
  if (width === undefined || height === undefined) return null;
  // An image without a source renders as an empty container, whose inner html is taken.
  if (src.trim() === '') return '';
  if (caption && !canonicalCaption(caption)) return null;

  const attributes = imageAttributes({ src, title, alt, width, height }, siteUrl);
  if (attributes === null) return null;
  const srcset = attributes.get('srcset');
  if (srcset && width !== null && width >= 720) {
    if (cardWidth === 'regular') attributes.set('sizes', '(min-width: 720px) 720px');
    if (cardWidth === 'wide' && width >= 1200) attributes.set('sizes', '(min-width: 1200px) 1200px');
  }

  let figureClass = 'kg-card kg-image-card';
  if (cardWidth !== 'regular') figureClass += ` kg-width-${cardWidth}`;
  if (caption) figureClass += ' kg-card-hascaption';
  const img = `<img${attributesHtml(attributes)}>`;
  return (
    `<figure class="${escapeAttribute(figureClass)}">` +
    (href ? `<a href="${escapeAttribute(href)}">${img}</a>` : img) +
    (caption ? `<figcaption>${caption}</figcaption>` : '') +
    '</figure>'
  );
}

interface ImageFields {
  src: string;
  title: string;
  alt: string;
  width: number | null;
  height: number | null;
}

/** The `<img>`'s attributes in the order the renderer sets them (a Map keeps a replaced value in place, as setAttribute does). */
function imageAttributes({ src, title, alt, width, height }: ImageFields, siteUrl: string | undefined): Map<string, string> | null {
  const attributes = new Map([
    ['src', src],
    ['class', 'kg-image'],
    ['alt', alt],
    ['loading', 'lazy'],
  ]);
  if (title) attributes.set('title', title);
  if (width !== null && height !== null) {
    attributes.set('width', String(width));
    attributes.set('height', String(height));
  }
  // Ghost resizes local uploads to defaultMaxWidth and prints the resized size. Without a height the ratio is
  // infinite and the height printed 0: reproduced, since the renderer does it.
  const maxWidth = IMAGE_OPTIMIZATION.defaultMaxWidth;
  if (maxWidth && width !== null && width > maxWidth && isLocalContentImage(src, siteUrl) && canTransformImage(src)) {
    attributes.set('width', String(maxWidth));
    attributes.set('height', String(Math.round(maxWidth / (width / (height ?? 0)))));
  }
  const srcset = srcsetOf(src, width, siteUrl);
  if (srcset === null) return null;
  if (srcset) attributes.set('srcset', srcset);
  return attributes;
}

function attributesHtml(attributes: Map<string, string>): string {
  let out = '';
  for (const [name, value] of attributes) out += ` ${name}="${escapeAttribute(value)}"`;
  return out;
}

/** kg-default-nodes' isLocalContentImage: the site's own `/content/images/` (the site url removed anywhere in it, once). */
function isLocalContentImage(src: string, siteUrl = ''): boolean {
  const path = src.replace(siteUrl.replace(/\/$/, ''), '');
  return /^(\/.*|__GHOST_URL__)\/?content\/images\//.test(path);
}

const { srcsets, contentImageSizes } = IMAGE_OPTIMIZATION;
const CONTENT_WIDTHS = Object.values(contentImageSizes ?? {})
  .map((size) => size.width)
  .sort((a, b) => a - b);

/** The resized widths Ghost offers for an image this wide, and the original's width between them. */
function availableWidths(width: number): number[] {
  const widths = CONTENT_WIDTHS.filter((w) => w <= width);
  if (widths.length > 0 && width > widths[widths.length - 1] && width < CONTENT_WIDTHS[CONTENT_WIDTHS.length - 1]) widths.push(width);
  return widths;
}

/**
 * The `srcset` Ghost's getSrcsetAttribute gives: '' for none, null when not reproduced (a local path its
 * regular expression does not split, an Unsplash address URL cannot parse: the renderer throws on those).
 */
function srcsetOf(src: string, width: number | null, siteUrl: string | undefined): string | null {
  if (srcsets === false || width === null || !contentImageSizes) return '';
  const local = isLocalContentImage(src, siteUrl);
  if (local && !canTransformImage(src)) return '';
  const widths = availableWidths(width);
  if (local) {
    const parts = /(.*\/content\/images)\/(.*)/.exec(src);
    if (parts === null) return null;
    const [, imagesPath, filename] = parts;
    const srcs = widths.map((w) => (w === width ? `${src} ${w}w` : `${imagesPath}/size/w${w}/${filename} ${w}w`));
    if (srcs.length > 0) return srcs.join(', ');
  }
  if (!/images\.unsplash\.com/.test(src)) return '';
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return null;
  }
  return widths
    .map((w) => {
      url.searchParams.set('w', String(w));
      return `${url.href} ${w}w`;
    })
    .join(', ');
}

/** A code card (`type: 'codeblock'`) as kg-default-nodes' renderCodeBlockNode writes it for the web. */
export function codeBlockHtml(node: Json): string | null {
  const code = stringField(node, 'code');
  const language = stringField(node, 'language');
  const caption = stringField(node, 'caption');
  if (code === null || language === null || caption === null) return null;
  if (code.trim() === '') return '';
  if (caption && !canonicalCaption(caption)) return null;
  // The code is a text node: escaped, never parsed.
  const pre = `<pre><code${language ? ` class="${escapeAttribute(`language-${language}`)}"` : ''}>${escapeText(code)}</code></pre>`;
  return caption ? `<figure class="kg-card kg-code-card">${pre}<figcaption>${caption}</figcaption></figure>` : pre;
}

/**
 * Inline elements a caption may hold. The html parser nests each of them as written when tags are properly
 * nested; `a` inside `a` is not (the parser closes the outer one), nor any block element.
 */
const CAPTION_TAGS = new Set(['a', 'b', 'strong', 'i', 'em', 'u', 's', 'sub', 'sup', 'code', 'span', 'mark', 'small']);

const CAPTION_TEXT = /[^<>&\u00a0]+|&(?:amp|lt|gt|nbsp);/y;
const CAPTION_START = /<([a-z]+)((?: [a-z][a-z0-9-]*="(?:[^"&\u00a0]|&(?:amp|quot|nbsp);)*")*)>/y;
const CAPTION_END = /<\/([a-z]+)>/y;
const CAPTION_ATTRIBUTE = / ([a-z][a-z0-9-]*)="(?:[^"&\u00a0]|&(?:amp|quot|nbsp);)*"/g;
// Control characters the parser drops or rewrites (NUL, `\r`) or that are best left to it; tab and newline are kept.
const CONTROL = /[\0-\x08\x0b-\x1f\x7f]/;

/**
 * Whether a caption set as a figcaption's innerHTML serialises back to itself: text written as the serializer
 * escapes it, properly nested start and end tags of CAPTION_TAGS (and `<br>`) with distinct lower-case
 * attributes quoted and escaped as the serializer writes them. Anything else (comments, entities the
 * serializer would write otherwise, a tag the parser would move or close) answers false.
 */
function canonicalCaption(caption: string): boolean {
  if (CONTROL.test(caption) || hasLoneSurrogate(caption)) return false;
  const open: string[] = [];
  let pos = 0;
  while (pos < caption.length) {
    const step = captionToken(caption, pos, open);
    if (step === null) return false;
    pos = step;
  }
  return open.length === 0;
}

/** Reads one token of a caption at `pos`, keeping the open tags; the next position, or null if not canonical. */
function captionToken(caption: string, pos: number, open: string[]): number | null {
  for (const pattern of [CAPTION_TEXT, CAPTION_START, CAPTION_END]) pattern.lastIndex = pos;
  if (CAPTION_TEXT.test(caption)) return CAPTION_TEXT.lastIndex;
  const start = CAPTION_START.exec(caption);
  if (start) {
    const [, tag, attributes] = start;
    if (!distinctAttributeNames(attributes)) return null;
    if (tag === 'br') return CAPTION_START.lastIndex;
    if (!CAPTION_TAGS.has(tag) || (tag === 'a' && open.includes('a'))) return null;
    open.push(tag);
    return CAPTION_START.lastIndex;
  }
  const end = CAPTION_END.exec(caption);
  if (end && end[1] === open[open.length - 1]) {
    open.pop();
    return CAPTION_END.lastIndex;
  }
  return null;
}

function distinctAttributeNames(attributes: string): boolean {
  const names = Array.from(attributes.matchAll(CAPTION_ATTRIBUTE), (match) => match[1]);
  return new Set(names).size === names.length;
}
