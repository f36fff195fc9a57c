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

/** `url` with `?ref=<ref>` added, as Ghost's OutboundLinkTagger adds it (not over a ref or utm source it has). */
export function tagUrl(url: URL, ref: string): URL {
  const tagged = new URL(url);
  if (tagged.searchParams.has('ref') || tagged.searchParams.has('utm_source') || tagged.searchParams.has('source')) return tagged;
  if (!tagged.protocol.startsWith('http')) return tagged;
  if (BLOCKED_HOSTS.includes(tagged.hostname)) return tagged;
  tagged.searchParams.append('ref', ref);
  return tagged;
}

/**
 * Ghost's LinkReplacer: each double-quoted lowercase `href` of an `<a>` tag, entities decoded, is offered to
 * `replace`; what it returns (null: keep the link) is written in place, so the rest of the document keeps its bytes.
 */
export function replaceLinks(html: string, replace: (href: string) => string | null): string {
  const { tokenize } = require('html5parser') as { tokenize: (html: string) => Token[] };
  const { decode } = require('entities') as { decode: (value: string) => string };
  const edits: { text: string; start: number; end: number }[] = [];
  let inAnchor = false;
  let inHref = false;
  for (const token of tokenize(html)) {
    if (token.type === OPEN_TAG && token.value === 'a') inAnchor = true;
    if (!inAnchor) continue;
    if (token.type === OPEN_TAG_END) inAnchor = inHref = false;
    if (token.type === ATTR_NAME && token.value === 'href') inHref = true;
    if (inHref && token.type === ATTR_VALUE_DOUBLE_QUOTED) {
      inHref = false;
      const text = replace(decode(token.value.substring(1, token.value.length - 1)));
      if (text !== null) edits.push({ text, start: token.start + 1, end: token.end - 1 });
    }
  }
  let out = html;
  let offset = 0;
  for (const { text, start, end } of edits) {
    out = out.slice(0, start + offset) + text + out.slice(end + offset);
    offset += text.length - (end - start);
  }
  return out;
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
  try {
    const site = new URL(siteUrl);
    const ref = site.hostname.replace(/^www\./, '');
    return replaceLinks(html, (href) => {
      let url: URL;
      try {
        url = new URL(href);
      } catch {
        return null; // relative or invalid: left as written
      }
      return (isSiteUrl(url, site) ? url : tagUrl(url, ref)).toString();
    });
  } catch {
    return html;
  }
}
