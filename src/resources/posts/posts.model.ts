import type { PostMetaRow, PostRow } from '../../db/schema.js';
import { META_FIELDS } from './posts.input.js';

const STANDARD_VISIBILITY = ['public', 'members', 'paid', 'tiers'];

/** `sent` is for e-mail-only posts; publishing an e-mail-only post sends it instead. */
export function effectiveStatus(requested: string, previous: string | null, emailOnly: boolean): string {
  if (requested === previous) return requested;
  if (emailOnly && requested === 'published') return 'sent';
  if (!emailOnly && requested === 'sent') return 'published';
  return requested;
}

/** Empty titles become `(Untitled)`; titles are trimmed (a title of spaces is then blank). */
export function cleanTitle(title: string | null | undefined): string {
  return (title || '(Untitled)').trim();
}

/**
 * Member-segment visibilities are stored as Ghost's model stores them: `status:-free` is `paid`, a filter
 * admitting free and paid members is `members`, anything else stays a filter (shown as `tiers`).
 */
export function storedVisibility(visibility: string): string {
  if (STANDARD_VISIBILITY.includes(visibility)) return visibility;
  if (visibility === 'status:-free') return 'paid';
  const statements = visibility.split(',').map((part) => part.trim());
  if (statements.includes('status:free') && statements.includes('status:-free')) return 'members';
  return visibility;
}

export const shownVisibility = (visibility: string) => (STANDARD_VISIBILITY.includes(visibility) ? visibility : 'tiers');

/** The posts_meta values after a write, and whether a row is worth creating (Ghost skips empty ones). */
export function nextMeta(existing: PostMetaRow | null, changes: Partial<PostMetaRow>): { values: Partial<PostMetaRow>; changed: boolean; hasData: boolean } {
  const values: Partial<PostMetaRow> = {};
  let changed = false;
  for (const key of META_FIELDS) {
    const before = existing?.[key] ?? (key === 'email_only' ? false : null);
    const after = key in changes ? changes[key] : before;
    (values as Record<string, unknown>)[key] = after;
    if (after !== before) changed = true;
  }
  const hasData = META_FIELDS.some((key) => !!values[key]);
  return { values, changed, hasData };
}

export const sameTime = (a: Date | null, b: Date | null) => (a === null || b === null ? a === b : a.getTime() === b.getTime());

/** Ghost's cache rule for edits: live changes purge the site, draft and scheduled edits only their previews. */
export function editInvalidation(siteUrl: string, previousStatus: string, next: PostRow, wasChanged: boolean): string | null {
  if ((next.status === 'published' && wasChanged) || (next.status === 'draft' && previousStatus === 'published')) return '/*';
  if (next.status === 'draft' || (next.status === 'scheduled' && wasChanged)) {
    const base = `${new URL(siteUrl).pathname}p/${next.uuid}/`;
    return [base, `${base}?member_status=anonymous`, `${base}?member_status=free`, `${base}?member_status=paid`].join(', ');
  }
  return null;
}
