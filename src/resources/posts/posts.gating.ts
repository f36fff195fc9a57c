import { htmlToPlaintext } from './posts.render.js';

const PAYWALL = '<!--members-only-->';
const HAS_GATED_BLOCKS = /<!--\s*kg-gated-block:begin/;
const GATED_BLOCK = /<!--kg-gated-block:begin ([^\n]+?)\s*-->([\s\S]*?)<!--kg-gated-block:end-->/g;
const GATED_PARAM = /\b(?<key>\w+):["']?(?<value>[^"'\s]+)["']?/g;

export interface GatedText {
  html: string | null;
  plaintext: string | null;
  excerpt: string | null;
  customExcerpt: string | null;
}

/** Text fields recomputed from cut html, as Ghost's post-gating `_updateTextAttrs` does. */
function recompute(text: GatedText): GatedText {
  const plaintext = text.html ? htmlToPlaintext(text.html) : text.plaintext;
  const excerpt = !text.customExcerpt && text.excerpt ? (plaintext ?? '').substring(0, 500) : text.excerpt;
  return { ...text, plaintext, excerpt };
}

/** An anonymous visitor keeps only the gated blocks meant for non-members. */
function stripGatedBlocks(html: string): string {
  return html.replace(GATED_BLOCK, (_match, params: string, content: string) => {
    for (const match of params.matchAll(GATED_PARAM)) {
      if (match.groups!.key === 'nonMember' && match.groups!.value === 'true') return content;
    }
    return '';
  });
}

/**
 * Content API member gating for a request without a member (browse.md §9): without access the html is
 * cut at the paywall marker, or emptied with the plaintext and excerpt; gated blocks are resolved.
 */
export function gateForAnonymous(text: Omit<GatedText, 'customExcerpt'> & { customExcerpt: string | null }, access: boolean): GatedText {
  let out: GatedText = { ...text };
  if (!access) {
    const paywall = (out.html ?? '').indexOf(PAYWALL);
    if (paywall !== -1) {
      out = recompute({ ...out, html: out.html!.slice(0, paywall) });
    } else {
      out = { ...out, html: out.html === null ? null : '', plaintext: out.plaintext === null ? null : '', excerpt: '' };
    }
  }
  if (out.html && HAS_GATED_BLOCKS.test(out.html)) out = recompute({ ...out, html: stripGatedBlocks(out.html) });
  return out;
}

const BLOCKED_REF_HOSTS = new Set(['facebook.com', 'www.facebook.com', 'web.archive.org', 'archive.org', 'www.federalreserve.gov', 'www.chicagomag.com']);

function decodeEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" })[name]!);
}

/**
 * `outbound_link_tagging`: every external http(s) link in an `<a href="…">` gets `ref=<site host>`
 * unless it already names a source; links to the site itself are only normalised (Ghost's LinkReplacer).
 */
export function tagOutboundLinks(html: string, siteUrl: string): string {
  const site = new URL(siteUrl);
  const ref = site.hostname.replace(/^www\./, '');
  return html.replace(/<a\s[^>]*>/gi, (tag) => tag.replace(/(\shref=)"([^"]*)"/i, (match, prefix: string, raw: string) => {
    let url: URL;
    try {
      url = new URL(decodeEntities(raw));
    } catch {
      return match;
    }
    const isSite = url.host === site.host && url.pathname.startsWith(site.pathname);
    if (!isSite && url.protocol.startsWith('http') && !BLOCKED_REF_HOSTS.has(url.hostname)
      && !url.searchParams.has('ref') && !url.searchParams.has('utm_source') && !url.searchParams.has('source')) {
      url.searchParams.append('ref', ref);
    }
    return `${prefix}"${url.toString()}"`;
  }));
}
