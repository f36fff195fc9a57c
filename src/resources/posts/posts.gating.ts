import type { MemberAccess } from '../../ctx.js';
import { htmlToPlaintext } from '../../content/text.js';
import { inSegment } from './posts.member-gating.js';

const PAYWALL = '<!--members-only-->';
const HAS_GATED_BLOCKS = /<!--\s*kg-gated-block:begin/;
const GATED_BLOCK = /<!--kg-gated-block:begin ([^\n]+?)\s*-->([\s\S]*?)<!--kg-gated-block:end-->/g;
const GATED_PARAM = /\b(?<key>\w+):(?:"(?<quoted>[^"]*)"|'(?<single>[^']*)'|(?<bare>[^"'\s]+))/g;

type Fields = Record<string, unknown>;

/** Ghost's `_updateTextAttrs`: plaintext (added even if not requested) and excerpt from the cut html. */
function recompute(out: Fields, customExcerpt: string | null): void {
  if (out.html) out.plaintext = htmlToPlaintext(out.html as string);
  if (!customExcerpt && out.excerpt) {
    const plaintext = (out.plaintext as string | undefined) || htmlToPlaintext((out.html as string | undefined) ?? '');
    out.excerpt = plaintext.substring(0, 500);
  }
}

/** A gated block's parameters (`nonMember:true memberSegment:"status:free"`). */
function blockParams(params: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of params.matchAll(GATED_PARAM)) found.set(m.groups!.key!, m.groups!.quoted ?? m.groups!.single ?? m.groups!.bare ?? '');
  return found;
}

/**
 * `checkGatedBlockAccess`: a visitor keeps the blocks meant for non-members, a member the blocks whose segment
 * they are in.
 */
function resolveGatedBlocks(html: string, member: MemberAccess | null): string {
  return html.replace(GATED_BLOCK, (_match, params: string, content: string) => {
    const found = blockParams(params);
    if (!member) return found.get('nonMember') === 'true' ? content : '';
    const segment = found.get('memberSegment');
    return segment && inSegment(segment, member) ? content : '';
  });
}

/**
 * Content API gating on the fields present in the response, as Ghost's post-gating does for a visitor or a
 * signed-in member: without access the html is cut at the paywall marker (text fields recomputed), or html,
 * plaintext and excerpt are emptied; gated blocks are resolved either way.
 */
export function gateContent(out: Fields, access: boolean, customExcerpt: string | null, member: MemberAccess | null): void {
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
    out.html = resolveGatedBlocks(out.html, member);
    recompute(out, customExcerpt);
  }
}
