import { htmlToPlaintext } from '../../content/text.js';

const PAYWALL = '<!--members-only-->';
const HAS_GATED_BLOCKS = /<!--\s*kg-gated-block:begin/;
const GATED_BLOCK = /<!--kg-gated-block:begin ([^\n]+?)\s*-->([\s\S]*?)<!--kg-gated-block:end-->/g;
const GATED_PARAM = /\b(?<key>\w+):["']?(?<value>[^"'\s]+)["']?/g;

type Fields = Record<string, unknown>;

/** Ghost's `_updateTextAttrs`: plaintext (added even if not requested) and excerpt from the cut html. */
function recompute(out: Fields, customExcerpt: string | null): void {
  if (out.html) out.plaintext = htmlToPlaintext(out.html as string);
  if (!customExcerpt && out.excerpt) {
    const plaintext = (out.plaintext as string | undefined) || htmlToPlaintext((out.html as string | undefined) ?? '');
    out.excerpt = plaintext.substring(0, 500);
  }
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
 * Content API member gating for a request without a member, on the fields present in the
 * response, as Ghost's post-gating does: without access the html is cut at the paywall marker (text fields
 * recomputed), or html, plaintext and excerpt are emptied; gated blocks are resolved either way.
 */
export function gateForAnonymous(out: Fields, access: boolean, customExcerpt: string | null): void {
  if (!access) {
    const paywall = typeof out.html === 'string' ? out.html.indexOf(PAYWALL) : -1;
    if (paywall !== -1) {
      out.html = (out.html as string).slice(0, paywall);
      recompute(out, customExcerpt);
    } else {
      for (const field of ['plaintext', 'html', 'excerpt']) if (out[field] !== undefined) out[field] = '';
    }
  }
  if (typeof out.html === 'string' && HAS_GATED_BLOCKS.test(out.html)) {
    out.html = stripGatedBlocks(out.html);
    recompute(out, customExcerpt);
  }
}
