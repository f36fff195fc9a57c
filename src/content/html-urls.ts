import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/*
 * The html half of the `__GHOST_URL__` storage form, with the same result as `@tryghost/url-utils` 4.4.14's
 * `htmlToTransformReady` without its cheerio document. url-utils loads the whole html into cheerio and selects
 * `[href]`, `[src]`, `[srcset]` and `[style]`; css-select's de-duplication of the top-level elements it starts from
 * grows with their square, so a 12 MB post of short sections spent ~9 CPU s there and held its DOM (issue 29).
 * Here the same parser cheerio uses (htmlparser2 3.10.1, entities left as written) reports each start tag with its
 * attributes and we keep the stack of open elements ourselves: the elements, their order and their attribute
 * values are the ones cheerio would have selected. The second half, rewriting the html text, is url-utils' own
 * procedure step for step, because the stored bytes must be Ghost's: a regular expression per changed attribute
 * value over the original text (indentation and formatting survive), skipping as many occurrences as were found
 * inside `<code>` or `<stream>`.
 */

type UrlTransform = (url: string, siteUrl: string, itemPath: string | null, options: Record<string, unknown>) => string;

interface ParserCallbacks {
  onopentag(name: string, attributes: Record<string, string>): void;
  onclosetag(name: string): void;
}
type ParserClass = new (callbacks: ParserCallbacks, options: { decodeEntities: boolean }) => { end(html: string): void };

const ATTRIBUTES = ['href', 'src', 'srcset', 'style'] as const;
type Attribute = (typeof ATTRIBUTES)[number];

interface Found {
  name: Attribute;
  original: string;
  /** Inside `<code>` (or a `<stream>` element): counted so the text pass leaves that occurrence alone. */
  skip: boolean;
}

/** Each start tag's url-bearing attributes, grouped by attribute in document order, as cheerio's four selections. */
function findUrlAttributes(html: string): Found[] {
  const { Parser } = require('htmlparser2') as { Parser: ParserClass };
  const byAttribute: Record<Attribute, Found[]> = { href: [], src: [], srcset: [], style: [] };
  const open: string[] = [];
  let codeDepth = 0;
  new Parser(
    {
      onopentag(name, attributes) {
        open.push(name);
        if (name === 'code') codeDepth++;
        for (const attribute of ATTRIBUTES) {
          if (!Object.prototype.hasOwnProperty.call(attributes, attribute)) continue;
          byAttribute[attribute].push({ name: attribute, original: attributes[attribute]!, skip: name === 'stream' || codeDepth > 0 });
        }
      },
      onclosetag() {
        if (open.pop() === 'code') codeDepth--;
      },
    },
    { decodeEntities: false },
  ).end(html);
  return ATTRIBUTES.flatMap((attribute) => byAttribute[attribute]);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The URLs inside a `srcset` (each candidate's first word) or a `style` (`url('…')` / `url("…")`). */
function urlsInside(attribute: 'srcset' | 'style', value: string): string[] {
  if (attribute === 'srcset') return value.split(',').map((candidate) => candidate.trim().split(/\s+/)[0]!);
  return [...value.matchAll(/url\(['|"]([^)]+)['|"]\)/g)].map((match) => match[1]!);
}

interface Replacement extends Found {
  transformed?: string;
}

/**
 * `html` with every URL in an href, src, srcset or style attribute passed through `transformUrl`. Untouched
 * (the same string) unless `earlyExit`, a regular expression source, matches it.
 */
export function transformHtmlUrls(
  html: string,
  siteUrl: string,
  transformUrl: UrlTransform,
  options: Record<string, unknown> & { earlyExitMatchStr: string },
): string {
  if (!html || !new RegExp(options.earlyExitMatchStr).test(html)) return html;
  // Keyed by attribute and original value in the order first found, as the text pass must visit them.
  const groups = new Map<string, Replacement[]>();
  for (const found of findUrlAttributes(html)) {
    let replacement: Replacement | null = found;
    if (!found.skip) {
      const transformed = transformValue(found, siteUrl, transformUrl, options);
      replacement = transformed === found.original ? null : { ...found, transformed };
    }
    if (!replacement) continue;
    const key = `${found.name}="${found.original}"`;
    const group = groups.get(key);
    if (group) group.push(replacement);
    else groups.set(key, [replacement]);
  }
  for (const group of groups.values()) {
    let skipped = 0;
    for (const { skip, name, original, transformed } of group) {
      if (skip) {
        skipped++;
        continue;
      }
      // The attribute inside a tag (between `<letter` and `>`), so text that merely reads like it is left alone.
      const inTag = new RegExp(`<[a-zA-Z][^>]*?(${name}=['"](${escapeRegExp(original)})['"]).*?>`, 'gs');
      let seen = 0;
      // Each pass rewrites one occurrence: the first one past those inside code; the rewritten one no longer
      // matches, so the next value of the group takes the next occurrence.
      html = html.replace(inTag, (tag: string, attributeText: string) =>
        seen++ === skipped ? tag.replace(attributeText, attributeText.replace(original, transformed!)) : tag,
      );
    }
  }
  return html;
}

function transformValue(found: Found, siteUrl: string, transformUrl: UrlTransform, options: Record<string, unknown>): string {
  if (found.name === 'href' || found.name === 'src') return transformUrl(found.original, siteUrl, null, options);
  let value = found.original;
  for (const url of urlsInside(found.name, found.original)) {
    const transformed = transformUrl(url, siteUrl, null, options);
    if (transformed) value = value.replace(new RegExp(escapeRegExp(url), 'g'), transformed);
  }
  return value;
}
