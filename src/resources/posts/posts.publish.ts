import type { NewsletterRow, PostMetaRow, PostRow } from '../../db/schema.js';
import type { WriteCtx } from '../../ctx.js';
import { findNewsletter } from '../newsletters/newsletters.queries.js';
import { activeNewsletterBySlug, recordPostEmail } from './posts.email.js';
import { postHasEmail } from '../emails/emails.queries.js';
import { recordRevision, revisionSnapshot } from './posts.revisions.js';
import { recordEdited, type Snapshot } from './posts.events.js';
import { editInvalidation } from './posts.model.js';
import type { PostType } from './posts.schemas.js';

const SENDING = ['published', 'sent'];

/** Ghost's `shouldSendEmail`: the post has just become published or sent. */
export const sendsEmailNow = (previous: string, next: string) => SENDING.includes(next) && !SENDING.includes(previous);

/**
 * `?newsletter=<slug>&email_segment=<filter>` on an edit, as Ghost's post model
 * applies them: only when the status changes to published, scheduled or sent and the post has no
 * newsletter yet; otherwise both are ignored. The segment is only taken together with a newsletter, and
 * reset to `all` when not given. Returns the newsletter it set.
 */
export async function publishWithNewsletter(
  w: WriteCtx,
  existing: PostRow,
  next: PostRow,
  options: { newsletter?: string; emailSegment?: string },
): Promise<NewsletterRow | null> {
  if (!options.newsletter || existing.newsletter_id || next.status === existing.status) return null;
  if (!['published', 'scheduled', 'sent'].includes(next.status)) return null;
  const newsletter = await activeNewsletterBySlug(w.db, options.newsletter);
  next.newsletter_id = newsletter.id;
  next.email_recipient_filter = options.emailSegment || 'all';
  return newsletter;
}

/** Ghost fires `site.changed` for every answer that invalidates the whole site's cache. */
export function siteChanged(w: WriteCtx, cacheInvalidate: string | null): void {
  if (cacheInvalidate === '/*') w.events.record('site.changed', {});
}

/** A stored change of an existing post, as the publish tail needs it. */
export interface PostChange {
  type: PostType;
  /** The row before the write, and as stored after it. */
  existing: PostRow;
  next: PostRow;
  meta: Partial<PostMetaRow> | null;
  /** The newsletter this write set (`?newsletter=`); otherwise the post's own is looked up when it mails. */
  newsletter: NewsletterRow | null;
  /** Whose save the revision is. */
  authorId: string;
  /** `?save_revision=true`. */
  saveRevision: boolean;
  /** Whether anything but the reading time changed (a save of nothing records no events). */
  wasChanged: boolean;
  /** The event snapshot taken before the write (`beforeChange`). */
  before: Snapshot | null;
}

/**
 * The publish tail, the one place every status change of an existing post ends (an edit, the scheduler):
 * the newsletter e-mail when the post has just gone out, the revision, the events, the site's cache.
 * Returns the `X-Cache-Invalidate` value. Newsletter sending hooks in at the e-mail step.
 */
export async function afterPostChange(w: WriteCtx, change: PostChange): Promise<string | null> {
  const { existing, next } = change;
  if (next.newsletter_id && change.wasChanged && sendsEmailNow(existing.status, next.status) && !(await postHasEmail(w.db, next.id))) {
    const newsletter = change.newsletter ?? (await findNewsletter(w.db, next.newsletter_id));
    if (!newsletter) throw new Error(`post ${next.id} names newsletter ${next.newsletter_id}, which does not exist`);
    await recordPostEmail(w, next, change.meta, newsletter);
  }
  if (!next.mobiledoc) {
    // Lexical posts only, as in Ghost.
    const snapshot = revisionSnapshot(next, change.meta ?? {}, change.authorId, w.site.url);
    await recordRevision(w.db, snapshot, { previousStatus: existing.status, force: change.saveRevision }, w.clock);
  }
  if (change.wasChanged) await recordEdited(w, change.type, next.id, change.before, existing, next);
  const cacheInvalidate = editInvalidation(w.site.url, existing.status, next, change.wasChanged);
  siteChanged(w, cacheInvalidate);
  return cacheInvalidate;
}
