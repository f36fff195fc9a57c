import type { ReadDb } from '../../db/read-db.js';
import type { Engine } from '../../db/engine.js';
import type { EmailRow, NewsletterRow, PostMetaRow, PostRow } from '../../db/schema.js';
import type { WriteCtx } from '../../ctx.js';
import { errors, GhostError } from '../../errors.js';
import { objectId, uuid } from '../../db/ids.js';
import { filterWhere } from '../../filter/filter.js';
import { readSettings } from '../../settings/settings.js';
import { MEMBERS_FILTER, MEMBERS_FILTER_RULES } from '../members/members.browse.js';
import { recipientFilter } from '../emails/emails.recipients.js';
import { countMatchingMembers, emailsOfPosts, insertEmail } from '../emails/emails.queries.js';
import { findActiveNewsletterBySlug, newslettersByIds } from '../newsletters/newsletters.queries.js';
import { queueEmailSend } from '../emails/emails.prepare.js';
import { presentEmailRow } from '../emails/emails.present.js';
import { newsletterFrom } from '../email-render/email-render.sender.js';

/** `?email_segment=`: Ghost runs it as a members filter; one that does not compile is refused with its reason. */
export function checkEmailSegment(engine: Engine, segment: string): void {
  try {
    filterWhere(MEMBERS_FILTER, engine, segment, MEMBERS_FILTER_RULES);
  } catch (err) {
    const reason = err instanceof GhostError ? (err.context ?? err.message) : (err as Error).message;
    throw errors.badRequest({ message: "The email segment parameter doesn't contain a valid filter", context: String(reason) });
  }
}

/** `?newsletter=<slug>` names an active newsletter, or the publish is refused as Ghost refuses it. */
export async function activeNewsletterBySlug(db: ReadDb, slug: string): Promise<NewsletterRow> {
  const newsletter = await findActiveNewsletterBySlug(db, slug);
  if (!newsletter) throw errors.badRequest("The newsletter parameter doesn't match any active newsletter.");
  return newsletter;
}

/**
 * Records the email of a post that has just been published or sent with a newsletter (Ghost's
 * `createEmail`), in the publishing transaction, `pending`, with the job that sends it: the job runner
 * picks the recipients when it runs and sends in batches (`resources/emails/`). An email with nobody to send
 * to is `submitted` at once, as in Ghost. `reply_to` stays null as in Ghost (which passes it under a name the
 * model ignores).
 */
export async function recordPostEmail(w: WriteCtx, post: PostRow, meta: Partial<PostMetaRow> | null, newsletter: NewsletterRow): Promise<void> {
  const settings = await readSettings(w.db, ['email_track_opens', 'email_track_clicks', 'title']);
  const count = await countMatchingMembers(w.db, w.engine, recipientFilter(newsletter, post.email_recipient_filter));
  const at = w.clock.now();
  const row: EmailRow = {
    id: objectId(),
    post_id: post.id,
    uuid: uuid(),
    status: count === 0 ? 'submitted' : 'pending',
    recipient_filter: post.email_recipient_filter,
    error: null,
    error_data: null,
    email_count: count,
    delivered_count: 0,
    opened_count: 0,
    failed_count: 0,
    subject: meta?.email_subject || post.title,
    from: newsletterFrom(newsletter, settings.get('title') ?? '', w.mailer.fromAddress).from,
    reply_to: null,
    html: null,
    plaintext: null,
    source: post.lexical || post.mobiledoc,
    source_type: post.lexical ? 'lexical' : 'mobiledoc',
    track_opens: settings.get('email_track_opens') === 'true',
    track_clicks: settings.get('email_track_clicks') === 'true',
    feedback_enabled: newsletter.feedback_enabled,
    submitted_at: at,
    newsletter_id: newsletter.id,
    created_at: at,
    created_by: w.actingUserId,
    updated_at: at,
    updated_by: w.actingUserId,
  };
  await insertEmail(w.db, row);
  if (count > 0) await queueEmailSend(w, row.id);
}

/** Each post's email and newsletter, for the Admin presenter. */
export interface PostMailing {
  emails: Map<string, EmailRow>;
  newsletters: Map<string, NewsletterRow>;
}

export async function loadPostMailing(db: ReadDb, posts: readonly Pick<PostRow, 'id' | 'newsletter_id'>[]): Promise<PostMailing> {
  const postIds = posts.map((post) => post.id);
  const newsletterIds = [...new Set(posts.map((post) => post.newsletter_id).filter((id): id is string => !!id))];
  const [emails, newsletters] = await Promise.all([emailsOfPosts(db, postIds), newslettersByIds(db, newsletterIds)]);
  return { emails: new Map(emails.map((email) => [email.post_id, email])), newsletters: new Map(newsletters.map((n) => [n.id, n])) };
}

/** The email embedded in an Admin post: Ghost caps the opened count at the recipients there. */
export function presentEmail(email: EmailRow) {
  return presentEmailRow(email, { capOpened: true });
}
