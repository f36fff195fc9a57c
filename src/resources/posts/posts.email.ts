import { sql } from 'kysely';
import validator from 'validator';
import type { ReadDb } from '../../db/read-db.js';
import type { Engine } from '../../db/engine.js';
import type { EmailRow, NewsletterRow, PostMetaRow, PostRow } from '../../db/schema.js';
import type { WriteCtx } from '../../ctx.js';
import { errors, GhostError } from '../../errors.js';
import { objectId, uuid } from '../../db/ids.js';
import { isoDate } from '../../content/dates.js';
import { filterWhere } from '../../filter/filter.js';
import { readSettings } from '../../settings/settings.js';
import { MEMBERS_FILTER, MEMBERS_FILTER_RULES } from '../members/members.browse.js';

/**
 * What sending would end in without a mail provider (Quire sends no bulk mail): Ghost marks an email with
 * no recipients `submitted` (no batch to send) and one with recipients `failed` with this error once its
 * batches fail (observed on 5.130.6 without Mailgun).
 */
const SEND_FAILED = 'An unexpected error occurred, please retry sending your newsletter.';

/** The member filter Ghost's email segmenter counts recipients with; `status:-free` only for paid newsletters. */
function recipientFilter(newsletter: NewsletterRow, segment: string): string {
  const parts = [`newsletters.id:'${newsletter.id}'`, 'email_disabled:false'];
  if (segment !== 'all') parts.push(`(${segment})`);
  if (newsletter.visibility === 'paid') parts.push('status:-free');
  return parts.join('+');
}

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
  const newsletter = await db.selectFrom('newsletters').selectAll().where('slug', '=', slug).where('status', '=', 'active').executeTakeFirst();
  if (!newsletter) throw errors.badRequest("The newsletter parameter doesn't match any active newsletter.");
  return newsletter;
}

/**
 * Ghost's `from` for a self-hosted site: the newsletter's sender (or the site's) name with its sender address
 * (or the default address); an address that is not a valid e-mail (a site on an IP address) falls back to the
 * default address alone, without a name.
 */
function fromAddress(newsletter: NewsletterRow, siteTitle: string, defaultAddress: string): string {
  const address = newsletter.sender_email || defaultAddress;
  if (!validator.isEmail(address)) return defaultAddress;
  // Ghost escapes quotes in the site title, then again when it writes the name (so a title's are doubled).
  const name = newsletter.sender_name || siteTitle.replace(/"/g, '\\"');
  if (!name) return address;
  // It also drops check-mark characters Gmail rejects in sender names.
  const cleaned = name
    .replace(/"/g, '\\"')
    .replace(/[\u2705\u2713\u2714\u2611\u{1F5F8}]/gu, '')
    .trim();
  return `"${cleaned}" <${address}>`;
}

async function recipientCount(w: WriteCtx, newsletter: NewsletterRow, segment: string): Promise<number> {
  const where = filterWhere(MEMBERS_FILTER, w.engine, recipientFilter(newsletter, segment), MEMBERS_FILTER_RULES);
  let query = w.db.selectFrom('members').select(sql<number>`count(distinct members.id)`.as('n'));
  if (where) query = query.where(where);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

/**
 * Records the email of a post that has just been published or sent with a newsletter (Ghost's
 * `createEmail`), in the publishing transaction. No mail goes out; the row ends where Ghost's would
 * without a mail provider. `reply_to` stays null as in Ghost (which passes it under a name the model ignores).
 */
export async function recordPostEmail(w: WriteCtx, post: PostRow, meta: Partial<PostMetaRow> | null, newsletter: NewsletterRow): Promise<void> {
  const settings = await readSettings(w.db, ['email_track_opens', 'email_track_clicks', 'title']);
  const count = await recipientCount(w, newsletter, post.email_recipient_filter);
  const at = w.clock.now();
  const row: EmailRow = {
    id: objectId(),
    post_id: post.id,
    uuid: uuid(),
    status: count === 0 ? 'submitted' : 'failed',
    recipient_filter: post.email_recipient_filter,
    error: count === 0 ? null : SEND_FAILED,
    error_data: null,
    email_count: count,
    delivered_count: 0,
    opened_count: 0,
    failed_count: 0,
    subject: meta?.email_subject || post.title,
    from: fromAddress(newsletter, settings.get('title') ?? '', w.mailer.fromAddress),
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
  await w.db.insertInto('emails').values(row).execute();
}

export async function postHasEmail(db: ReadDb, postId: string): Promise<boolean> {
  return (await db.selectFrom('emails').select('id').where('post_id', '=', postId).executeTakeFirst()) !== undefined;
}

/** Each post's email and newsletter, for the Admin presenter. */
export interface PostMailing {
  emails: Map<string, EmailRow>;
  newsletters: Map<string, NewsletterRow>;
}

export async function loadPostMailing(db: ReadDb, posts: readonly Pick<PostRow, 'id' | 'newsletter_id'>[]): Promise<PostMailing> {
  const postIds = posts.map((post) => post.id);
  const newsletterIds = [...new Set(posts.map((post) => post.newsletter_id).filter((id): id is string => !!id))];
  const [emails, newsletters] = await Promise.all([
    postIds.length ? db.selectFrom('emails').selectAll().where('post_id', 'in', postIds).execute() : [],
    newsletterIds.length ? db.selectFrom('newsletters').selectAll().where('id', 'in', newsletterIds).execute() : [],
  ]);
  return { emails: new Map(emails.map((email) => [email.post_id, email])), newsletters: new Map(newsletters.map((n) => [n.id, n])) };
}

/** The email embedded in an Admin post, in Ghost's key order (`created_by`/`updated_by` never shown). */
export function presentEmail(email: EmailRow) {
  return {
    id: email.id,
    post_id: email.post_id,
    uuid: email.uuid,
    status: email.status,
    recipient_filter: email.recipient_filter,
    error: email.error,
    error_data: email.error_data,
    email_count: email.email_count,
    delivered_count: email.delivered_count,
    // Ghost caps the opened count at the recipients when it embeds an email in a post.
    opened_count: Math.min(email.opened_count, email.email_count),
    failed_count: email.failed_count,
    subject: email.subject,
    from: email.from,
    reply_to: email.reply_to,
    html: email.html,
    plaintext: email.plaintext,
    source: email.source,
    source_type: email.source_type,
    track_opens: email.track_opens,
    track_clicks: email.track_clicks,
    feedback_enabled: email.feedback_enabled,
    submitted_at: isoDate(email.submitted_at),
    newsletter_id: email.newsletter_id,
    created_at: isoDate(email.created_at),
    updated_at: isoDate(email.updated_at),
  };
}
