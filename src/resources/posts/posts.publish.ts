import type { NewsletterRow, PostRow } from '../../db/schema.js';
import type { WriteCtx } from '../../ctx.js';
import { activeNewsletterBySlug } from './posts.email.js';

const SENDING = ['published', 'sent'];

/** Ghost's `shouldSendEmail`: the post has just become published or sent. */
export const sendsEmailNow = (previous: string, next: string) => SENDING.includes(next) && !SENDING.includes(previous);

/**
 * `?newsletter=<slug>&email_segment=<filter>` on an edit (input-validation.md §2.6), as Ghost's post model
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
