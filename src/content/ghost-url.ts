import { defaultNodes, urlTransforms, urlUtilsClass, type UrlUtils } from './ghost-libs.js';
import { transformHtmlUrls } from './html-urls.js';
import { transformLexicalInPlace, type LexicalUrlPass, type UrlTransformMap } from './lexical-urls.js';
import { mobiledocCards } from './render-options.js';

/**
 * The `__GHOST_URL__` storage form. On write, same-site absolute URLs and site-relative
 * URLs become `__GHOST_URL__/…` so a site can move to another domain without rewriting content; on read every
 * `__GHOST_URL__` becomes the configured site URL again. Done with `@tryghost/url-utils` 4.4.14, the library
 * Ghost's models call, so the stored bytes match Ghost's.
 *
 * Every function passes `null`/`undefined`/`''` through untouched (Ghost only transforms truthy values).
 */

type Maybe = string | null | undefined;

interface SiteTransforms {
  siteUrl: string;
  utils: UrlUtils;
  lexicalOptions: Record<string, unknown>;
  /** lexicalToStorageInPlace's two passes, with the options url-utils gives each. */
  lexicalPasses: LexicalUrlPass[];
  /** Values both storage passes are known to return unchanged for this site. */
  kept: KeptValues;
}

const bySite = new Map<string, SiteTransforms>();

/** Ghost builds one UrlUtils from its config; we keep one per site URL (normally exactly one). */
function forSite(siteUrl: string): SiteTransforms {
  const url = siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`;
  let found = bySite.get(url);
  if (!found) {
    const pathname = new URL(url).pathname.replace(/\/$/, '');
    const UrlUtilsClass = urlUtilsClass();
    const utils = new UrlUtilsClass({
      getSubdir: () => pathname,
      getSiteUrl: () => url,
      getAdminUrl: () => url,
      baseApiPath: '/ghost/api',
    });
    // Same map Ghost's lib/lexical.js hands to url-utils: how each card property holding a URL, html or
    // markdown is transformed.
    const transformMap = {
      absoluteToRelative: {
        url: (value: string) => utils.absoluteToRelative(value),
        html: (value: string) => utils.htmlAbsoluteToRelative(value),
        markdown: (value: string) => utils.markdownAbsoluteToRelative(value),
      },
      relativeToAbsolute: {
        url: (value: string) => utils.relativeToAbsolute(value),
        html: (value: string) => utils.htmlRelativeToAbsolute(value),
        markdown: (value: string) => utils.markdownRelativeToAbsolute(value),
      },
      toTransformReady: {
        url: (value: string) => utils.toTransformReady(value),
        html: (value: string) => htmlToStorage(value, url),
        markdown: (value: string) => utils.markdownToTransformReady(value),
      },
    };
    const lexicalOptions = { nodes: defaultNodes(), transformMap };
    const kept = keptByBothPasses(url);
    found = { siteUrl: url, utils, lexicalOptions, lexicalPasses: lexicalPasses(url, lexicalOptions, kept), kept };
    bySite.set(url, found);
  }
  return found;
}

const MARKER = '__GHOST_URL__';

function fromStorage<T extends Maybe>(value: T, siteUrl: string): T {
  // Most stored text holds no marker: one search is much cheaper than the library's replace over a long post.
  if (!value || !value.includes(MARKER)) return value;
  return forSite(siteUrl).utils.transformReadyToAbsolute(value) as T;
}

export interface UrlStorageOptions {
  /**
   * Ghost treats `https://site/x` as same-site for an `http://site/` site (protocol ignored) except for
   * `canonical_url`, which it stores with `ignoreProtocol: false`.
   */
  ignoreProtocol?: boolean;
}

/** A URL field (`feature_image`, `og_image`, `canonical_url` with `{ignoreProtocol: false}`, …) → storage. */
export function toStorageUrl<T extends Maybe>(value: T, siteUrl: string, options: UrlStorageOptions = {}): T {
  if (!value) return value;
  return forSite(siteUrl).utils.toTransformReady(value, options.ignoreProtocol === false ? { ignoreProtocol: false } : {}) as T;
}

export const fromStorageUrl = fromStorage;

/**
 * html (`html`, and also `custom_excerpt`, `codeinjection_head/foot`, which Ghost transforms as html): url-utils'
 * `htmlToTransformReady`, its two passes (relative URLs made absolute, then same-site absolute ones transform-ready)
 * with the options it gives them, over html-urls.ts instead of a cheerio document.
 */
export function htmlToStorage<T extends Maybe>(value: T, siteUrl: string): T {
  if (!value) return value;
  const { siteUrl: url, kept } = forSite(siteUrl);
  if (htmlUrlsKeptAsIs(value, kept)) return value;
  const { relativeToAbsolute, absoluteToTransformReady } = urlTransforms();
  const absolute = transformHtmlUrls(value, url, relativeToAbsolute, { assetsOnly: false, secure: false, earlyExitMatchStr: 'href=|src=|srcset=' });
  return transformHtmlUrls(absolute, url, (each, site, _itemPath, options) => absoluteToTransformReady(each, site, options), {
    assetsOnly: false,
    secure: false,
    ignoreProtocol: true,
    // The site's address without its protocol and closing slash, read as a pattern, as url-utils reads it.
    earlyExitMatchStr: url.replace(/http:|https:/, '').replace(/\/$/, ''),
  }) as T;
}

export const htmlFromStorage = fromStorage;

/** `plaintext`: URLs written out in text are stored transform-ready too. */
export function plaintextToStorage<T extends Maybe>(value: T, siteUrl: string): T {
  if (!value) return value;
  return forSite(siteUrl).utils.plaintextToTransformReady(value) as T;
}

export const plaintextFromStorage = fromStorage;

/** Serialized lexical: link nodes and every card property Ghost's nodes declare as url/html/markdown. */
export function lexicalToStorage<T extends Maybe>(value: T, siteUrl: string): T {
  if (!value) return value;
  const site = forSite(siteUrl);
  return site.utils.lexicalToTransformReady(value, site.lexicalOptions) as T;
}

export const lexicalFromStorage = fromStorage;

/**
 * lexicalToStorage on a document already parsed (not shared with anything that reads it later: it is changed in
 * place); true when a value changed. Unchanged, the stored form of JSON.stringify's text of the document is that
 * text itself (the library writes out what it parsed, and JSON.stringify's text parses and writes back to the same
 * bytes); changed, it is JSON.stringify(document). Spares url-utils' two parses and writes of the whole JSON.
 * Compared with lexicalToStorage in ghost-url.test.ts.
 */
export function lexicalToStorageInPlace(document: unknown, siteUrl: string): boolean {
  let changed = false;
  // Both passes always run, the second on the first's result, as url-utils' lexicalToTransformReady does.
  for (const pass of forSite(siteUrl).lexicalPasses) changed = transformLexicalInPlace(document, pass) || changed;
  return changed;
}

/**
 * url-utils' lexicalRelativeToAbsolute then lexicalAbsoluteToTransformReady as UrlUtils.lexicalToTransformReady
 * calls them: each link's URL through the same function with the same options object the library builds (its
 * defaults, our nodes and transform map, the site URL, the item path: null, then ''), each card property through
 * the transform map's entry for the pass.
 */
function lexicalPasses(
  siteUrl: string,
  lexicalOptions: { nodes: ReturnType<typeof defaultNodes>; transformMap: Record<string, Record<string, (value: string) => string>> },
  kept: KeptValues,
): LexicalUrlPass[] {
  const { relativeToAbsolute, absoluteToTransformReady } = urlTransforms();
  const cards = new Map<string, UrlTransformMap>();
  for (const node of lexicalOptions.nodes) if (node.urlTransformMap) cards.set(node.getType(), node.urlTransformMap);
  const base = { assetsOnly: false, secure: false, ...lexicalOptions, siteUrl };
  const toAbsolute = { ...base, itemPath: null, transformType: 'relativeToAbsolute' };
  const toReady = { ...base, transformType: 'toTransformReady', itemPath: '' };
  // A value both passes are known to leave as it is skips the library: its URL parsing was about half of the
  // 0.3-0.65 s a 12 MB post's pass took, for twenty thousand links and images to other sites (issue 29).
  const unlessKept =
    (isKept: (value: unknown) => boolean, transform: (value: unknown) => unknown) =>
    (value: unknown): unknown =>
      isKept(value) ? value : transform(value);
  const byKind = (type: string) => {
    const kinds = lexicalOptions.transformMap[type] as Record<string, (value: unknown) => unknown>;
    return { ...kinds, url: unlessKept(kept.url, kinds.url!), html: unlessKept(kept.html, kinds.html!) };
  };
  return [
    { cards, byKind: byKind('relativeToAbsolute'), link: unlessKept(kept.url, (url) => relativeToAbsolute(url as string, siteUrl, null, toAbsolute)) },
    { cards, byKind: byKind('toTransformReady'), link: unlessKept(kept.url, (url) => absoluteToTransformReady(url as string, siteUrl, toReady)) },
  ];
}

/**
 * An absolute http(s) URL whose host name is written as WHATWG URL parsing leaves it (lower-case ASCII labels, the
 * last one starting with a letter, so not an IPv4 address, no user or backslash): its parsed host is exactly that
 * text. url-utils returns such a URL as it is in both passes unless its host is the site's (relativeToAbsolute
 * returns any URL of another origin; absoluteToRelative any URL of another host). Anything else goes to the library.
 */
const PLAIN_HOST_URL = /^https?:\/\/((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)(?::\d*)?(?:[/?#]|$)/;

/** Where an attribute both html passes may rewrite could be written (any case, any spacing, inside `data-src` too). */
const URL_ATTRIBUTE = /(href|srcset|src|style)\s*=\s*/gi;

/**
 * Whether both html passes leave `html` as it is, known without parsing it (a 12 MB post's parse took 0.3-0.45 s,
 * issue 29): every place an href, src, srcset or style attribute could be written has a double-quoted value that
 * keptByBothPasses keeps. A parsed attribute of those names is such a place, its value the text up to the closing
 * quote, and an attribute without a value is empty, which both passes keep; anything else goes to the parse.
 */
function htmlUrlsKeptAsIs(html: string, kept: KeptValues): boolean {
  URL_ATTRIBUTE.lastIndex = 0;
  for (let found = URL_ATTRIBUTE.exec(html); found; found = URL_ATTRIBUTE.exec(html)) {
    const start = URL_ATTRIBUTE.lastIndex;
    const end = html.indexOf('"', start + 1);
    // A srcset or style value holds URLs among other text: those go to the parse.
    const name = found[1]!.toLowerCase();
    if ((name !== 'href' && name !== 'src') || html[start] !== '"' || end < 0 || !kept.url(html.slice(start + 1, end))) return false;
    URL_ATTRIBUTE.lastIndex = end + 1;
  }
  return true;
}

interface KeptValues {
  url: (value: unknown) => boolean;
  html: (value: unknown) => boolean;
}

function keptByBothPasses(siteUrl: string): KeptValues {
  const siteHost = new URL(siteUrl).hostname;
  return {
    url: (value: unknown): boolean => {
      if (typeof value !== 'string') return false;
      const host = PLAIN_HOST_URL.exec(value)?.[1];
      // `relative` is the base url-utils parses against; a URL of that host it treats as relative.
      return host !== undefined && host !== siteHost && host !== 'relative';
    },
    // Without a tag there is no attribute to rewrite: both html transforms return such text unchanged.
    html: (value: unknown): boolean => typeof value === 'string' && !value.includes('<'),
  };
}

let urlBearing: RegExp | null = null;

/**
 * Whether serialized lexical as JSON.stringify writes it (the html converters' output; not a client's text, whose
 * spacing the transform would change) is its own stored form. lexicalToStorage parses the whole document, rewrites
 * every `url` property and the properties of the cards that declare a URL transform, and writes it again: 70 MB of
 * heap and 0.2 CPU s for a 14 MB post (issue 29). Without a `"url":` key and without such a card it changes
 * nothing. In JSON text a quote inside a string is escaped, so neither pattern can match inside text; a match
 * only means the transform runs.
 */
export function lexicalStoredAsIs(lexical: string): boolean {
  urlBearing ??= new RegExp(
    `"url":|"type":"(?:${defaultNodes()
      .filter((node) => Object.keys(node.urlTransformMap ?? {}).length > 0)
      .map((node) => node.getType().replace(/[^\w-]/g, '\\$&'))
      .join('|')})"`,
  );
  return !urlBearing.test(lexical);
}

/** Serialized mobiledoc: link markups and card payloads through the default cards' own transformers. */
export function mobiledocToStorage<T extends Maybe>(value: T, siteUrl: string): T {
  if (!value) return value;
  const site = forSite(siteUrl);
  return site.utils.mobiledocToTransformReady(value, { cardTransformers: mobiledocCards(site.siteUrl) }) as T;
}

export const mobiledocFromStorage = fromStorage;
