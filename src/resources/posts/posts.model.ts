import type { PostMetaRow, PostRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { META_FIELDS } from './posts.input.js';

/** Ghost's `times.cannotScheduleAPostBeforeInMinutes` (-2): scheduling up to two minutes in the past is allowed. */
const SCHEDULE_GRACE_MS = 2 * 60 * 1000;
const STANDARD_VISIBILITY = ['public', 'members', 'paid', 'tiers'];

/** Status rules the model applies on every save (input-validation.md §2.2). */
export function checkSchedule(status: string, publishedAt: Date | null, publishedAtChanged: boolean): void {
  if (status !== 'scheduled') return;
  if (!publishedAt || Number.isNaN(publishedAt.getTime())) throw errors.validation('Value in published_at cannot be blank.');
  if (publishedAtChanged && publishedAt.getTime() < Date.now() - SCHEDULE_GRACE_MS) {
    throw errors.validation('Date must be at least -2 minutes in the future.');
  }
}

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
 * Column checks of Ghost's schema validator that the JSON schema leaves open (`Value in [table.column] …`),
 * with the column as context.
 */
export function checkColumns(row: Pick<PostRow, 'title' | 'visibility'>): void {
  if (row.title === '') throw errors.validation({ message: 'Value in [posts.title] cannot be blank.', context: 'posts.title' });
  if ([...row.title].length > 255) {
    throw errors.validation({ message: 'Value in [posts.title] exceeds maximum length of 255 characters.', context: 'posts.title' });
  }
  if (row.visibility.length > 50) {
    throw errors.validation({ message: 'Value in [posts.visibility] exceeds maximum length of 50 characters.', context: 'posts.visibility' });
  }
}

/** `feature_image_alt` is a 191-character column where it is stored (the revision first, for lexical posts). */
export function checkFeatureImageAlt(alt: string | null | undefined, table: 'post_revisions' | 'posts_meta'): void {
  if (alt && [...alt].length > 191) {
    throw errors.validation({ message: `Value in [${table}.feature_image_alt] exceeds maximum length of 191 characters.`, context: `${table}.feature_image_alt` });
  }
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
