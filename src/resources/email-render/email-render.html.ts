import { createRequire } from 'node:module';
import { replaceLinks } from '../../content/outbound-links.js';

/**
 * The steps after the template, as Ghost's email renderer takes them on the whole document: links made
 * absolute, styles inlined (juice 9.1.0, Ghost's pin), then the fixes mail clients need (links open in a new
 * tab, `figure` → `div` for Outlook's margins, the image of the wrong background dropped). cheerio 0.22.0 parses
 * and serialises as Ghost's does, so the markup matches byte for byte where the input does.
 */
const require = createRequire(import.meta.url);

interface CheerioNode {
  attribs: Record<string, string>;
  tagName: string;
}
interface CheerioSelection {
  get(): CheerioNode[];
  each(fn: (i: number, el: CheerioNode) => unknown): CheerioSelection;
  addClass(name: string): CheerioSelection;
  attr(name: string, value: string): CheerioSelection;
  removeAttr(name: string): CheerioSelection;
  remove(): CheerioSelection;
}
export type CheerioDoc = ((selector: string | CheerioNode) => CheerioSelection) & { html(): string };

export function loadHtml(html: string): CheerioDoc {
  return (require('cheerio') as { load(html: string): CheerioDoc }).load(html);
}

/** Keeps only the `data-gh-segment` blocks meant for this segment (without their attribute). */
export function keepSegment(html: string, segment: string | null): string {
  const $ = loadHtml(html);
  for (const node of $('[data-gh-segment]').get()) {
    if (node.attribs['data-gh-segment'] !== segment) $(node).remove();
    else $(node).removeAttr('data-gh-segment');
  }
  return $.html();
}

/** The segments a post's email content differs by, from its email-target html. */
export function segmentsOf(html: string): string[] {
  const both = ['status:free', 'status:-free'];
  if (html.includes('<!--members-only-->')) return both;
  const $ = loadHtml(html);
  const named = $('[data-gh-segment]')
    .get()
    .map((el) => el.attribs['data-gh-segment']);
  return named.some((segment) => segment !== undefined && both.includes(segment)) ? both : [];
}

/**
 * Each `<a href>` through `replace` (relative ones resolved against `base` first), in place (Ghost's
 * LinkReplacer). Replacement tokens and the bare `#` Ghost uses to keep e-mail addresses unlinked are left as
 * written.
 */
export function replaceEmailLinks(html: string, base: string, replace: (url: URL) => string = (url) => url.href): string {
  const { encode } = require('entities') as { encode: (value: string) => string };
  return replaceLinks(html, (href) => {
    if (href === '#' || (href.startsWith('%%{') && href.endsWith('}%%'))) return null;
    let url: URL;
    try {
      url = new URL(href, base);
    } catch {
      return null;
    }
    const text = replace(url);
    return text.includes('"') || text.includes('<') ? encode(text) : text;
  });
}

export function inlineAndFix(html: string, backgroundIsDark: boolean): string {
  let $ = loadHtml(html);
  // juice writes `width="auto"` on images whose CSS says so, which Outlook misreads: keep the attributes they had.
  const sizes = $('img')
    .get()
    .map((img) => ({ src: img.attribs.src, width: img.attribs.width, height: img.attribs.height }));
  $('figcaption').each((_i, el) => $(el).addClass('kg-card-figcaption'));
  const juice = require('juice') as (html: string, options: object) => string;
  $ = loadHtml(juice($.html(), { inlinePseudoElements: true, removeStyleTags: true }));
  $('img')
    .get()
    .forEach((img, i) => {
      const before = sizes[i];
      if (!before || before.src !== img.attribs.src) return;
      if (img.attribs.width === 'auto' && before.width) img.attribs.width = before.width;
      if (img.attribs.height === 'auto' && before.height) img.attribs.height = before.height;
    });
  $('a').attr('target', '_blank');
  $('figure, figcaption').each((_i, el) => {
    el.tagName = 'div';
  });
  $(backgroundIsDark ? 'img.is-light-background' : 'img.is-dark-background').remove();
  return $.html();
}

/** Characters Outlook shows wrongly unless written as entities. */
export function outlookEntities(html: string): string {
  return html
    .replace(/&apos;/g, '&#39;')
    .replace(/→/g, '&rarr;')
    .replace(/–/g, '&ndash;')
    .replace(/“/g, '&ldquo;')
    .replace(/”/g, '&rdquo;');
}
