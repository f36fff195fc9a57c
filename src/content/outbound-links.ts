import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface Token {
  start: number;
  end: number;
  value: string;
  type: number;
}

// html5parser's TokenKind values (2.0.2).
const OPEN_TAG = 1;
const OPEN_TAG_END = 2;
const ATTR_NAME = 6; // "AttrValueNq": an attribute name, or an unquoted value
const ATTR_VALUE_DOUBLE_QUOTED = 8;

/** Hosts that break with an extra `ref` parameter (Ghost's member-attribution OutboundLinkTagger list). */
const BLOCKED_HOSTS = ['facebook.com', 'www.facebook.com', 'web.archive.org', 'archive.org', 'www.federalreserve.gov', 'www.chicagomag.com'];

function isSiteUrl(url: URL, site: URL): boolean {
  return url.host === site.host && url.pathname.startsWith(site.pathname);
}

function tagUrl(url: URL, ref: string): URL {
  const tagged = new URL(url);
  if (tagged.searchParams.has('ref') || tagged.searchParams.has('utm_source') || tagged.searchParams.has('source')) return tagged;
  if (!tagged.protocol.startsWith('http')) return tagged;
  if (BLOCKED_HOSTS.includes(tagged.hostname)) return tagged;
  tagged.searchParams.append('ref', ref);
  return tagged;
}

/**
 * Content API `html` with the setting `outbound_link_tagging` on: every external http(s) link
 * gets `?ref=<site hostname without www.>`, as Ghost's OutboundLinkTagger does through its LinkReplacer.
 * Reproduced to the byte, quirks included: only double-quoted lowercase `href` values of `<a>` tags are
 * touched; each parsable absolute href is rewritten as the WHATWG URL serialises it (site links too), so
 * entities are decoded (`&amp;` → `&`), a bare host gains `/` and non-ASCII is percent-encoded; relative
 * hrefs are left alone. Any failure returns the html unchanged, as Ghost does.
 */
export function tagOutboundLinks(html: string, siteUrl: string): string {
  const { tokenize } = require('html5parser') as { tokenize: (html: string) => Token[] };
  const { decode } = require('entities') as { decode: (value: string) => string };
  try {
    const site = new URL(siteUrl);
    const ref = site.hostname.replace(/^www\./, '');
    const replacements: { url: string; start: number; end: number }[] = [];
    let inAnchor = false;
    let inHref = false;

    for (const token of tokenize(html)) {
      if (token.type === OPEN_TAG && token.value === 'a') inAnchor = true;
      if (!inAnchor) continue;
      if (token.type === OPEN_TAG_END) {
        inAnchor = false;
        inHref = false;
      }
      if (token.type === ATTR_NAME && token.value === 'href') inHref = true;
      if (inHref && token.type === ATTR_VALUE_DOUBLE_QUOTED) {
        let url: URL | null = null;
        try {
          url = new URL(decode(token.value.substring(1, token.value.length - 1)));
        } catch {
          // relative or invalid: left as written
        }
        if (url) {
          const replaced = isSiteUrl(url, site) ? url : tagUrl(url, ref);
          replacements.push({ url: replaced.toString(), start: token.start + 1, end: token.end - 1 });
        }
        inHref = false;
      }
    }

    let out = html;
    let offset = 0;
    for (const { url, start, end } of replacements) {
      out = out.slice(0, start + offset) + url + out.slice(end + offset);
      offset += url.length - (end - start);
    }
    return out;
  } catch {
    return html;
  }
}
