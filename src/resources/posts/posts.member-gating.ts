import type { MemberAccess } from '../../ctx.js';
import { htmlToPlaintext } from '../../content/text.js';

/**
 * Ghost's content gating (`services/members/content-gating.js`) for a signed-in member: whether the member
 * may read a post, and which gated blocks (`<!--kg-gated-block:begin nonMember:… memberSegment:"…"-->`) they
 * see. Segments are NQL over the member's `status` (and tiers by slug in Ghost; tier ids here, as only
 * status segments are made by Ghost's editor).
 */

/** `checkPostAccess`: public for all, `members` for any member, `paid` for non-free, `tiers` for holders. */
export function memberCanRead(visibility: string, member: MemberAccess | null | undefined, postTierIds: readonly string[]): boolean {
  if (visibility === 'public') return true;
  if (!member) return false;
  if (visibility === 'members') return true;
  if (visibility === 'paid') return member.status !== 'free';
  if (visibility === 'tiers') return postTierIds.some((id) => member.tierIds.includes(id));
  return false;
}

/** One NQL term list as the editor writes segments: `status:free`, `status:-free`, joined by `,` (or). */
function segmentMatches(segment: string, member: MemberAccess): boolean {
  const terms = segment
    .split(',')
    .map((term) => term.trim())
    .filter(Boolean);
  if (terms.length === 0) return false;
  return terms.some((term) => {
    const m = /^status:(-)?['"]?([a-z]+)['"]?$/.exec(term);
    if (!m) return false;
    return m[1] ? member.status !== m[2] : member.status === m[2];
  });
}

const PAYWALL = '<!--members-only-->';
const HAS_GATED_BLOCKS = /<!--\s*kg-gated-block:begin/;
const GATED_BLOCK = /<!--kg-gated-block:begin ([^\n]+?)\s*-->([\s\S]*?)<!--kg-gated-block:end-->/g;
const GATED_PARAM = /\b(?<key>\w+):(?:"(?<quoted>[^"]*)"|'(?<single>[^']*)'|(?<bare>[^"'\s]+))/g;

/** `checkGatedBlockAccess` for a member: only blocks whose segment the member is in. */
function keepBlocksFor(html: string, member: MemberAccess): string {
  return html.replace(GATED_BLOCK, (_match, params: string, content: string) => {
    let segment: string | null = null;
    for (const m of params.matchAll(GATED_PARAM)) {
      if (m.groups!.key === 'memberSegment') segment = m.groups!.quoted ?? m.groups!.single ?? m.groups!.bare ?? '';
    }
    return segment && segmentMatches(segment, member) ? content : '';
  });
}

type Fields = Record<string, unknown>;

function recompute(out: Fields, customExcerpt: string | null): void {
  if (out.html) out.plaintext = htmlToPlaintext(out.html as string);
  if (!customExcerpt && out.excerpt) {
    const plaintext = (out.plaintext as string | undefined) || htmlToPlaintext((out.html as string | undefined) ?? '');
    out.excerpt = plaintext.substring(0, 500);
  }
}

/** The member's view of the post's fields: cut at the paywall (or emptied) without access, blocks resolved. */
export function gateForMember(out: Fields, access: boolean, customExcerpt: string | null, member: MemberAccess): void {
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
    out.html = keepBlocksFor(out.html, member);
    recompute(out, customExcerpt);
  }
}
