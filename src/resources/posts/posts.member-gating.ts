import type { MemberAccess } from '../../ctx.js';

/**
 * Ghost's content gating for a signed-in member: whether the member may read a post, and which gated blocks
 * (`<!--kg-gated-block:begin nonMember:… memberSegment:"…"-->`) they see (`posts.gating.ts` applies both).
 * Segments are NQL over the member's `status` (and tiers by slug in Ghost; only status segments are matched
 * here, as Ghost's editor makes only those).
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
export function inSegment(segment: string, member: MemberAccess): boolean {
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
