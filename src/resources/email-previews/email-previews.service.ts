import { createHmac } from 'node:crypto';
import type { Ctx } from '../../ctx.js';
import type { NewsletterRow, PostRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { readSettings } from '../../settings/settings.js';
import { personaliseEmail, renderPostEmail, type RecipientContext } from '../email-render/email-render.js';
import { defaultNewsletter, memberByEmail, newsletterBySlug, postById } from '../email-render/email-render.queries.js';
import { findNewsletter } from '../newsletters/newsletters.queries.js';
import { newsletterSender } from '../email-render/email-render.sender.js';

export interface PreviewInput {
  postId: string;
  /** A newsletter's slug; else the post's newsletter, else the default one. */
  newsletter?: string | undefined;
  memberSegment?: string | undefined;
}

async function postAndNewsletter(ctx: Ctx, input: PreviewInput): Promise<{ post: PostRow; newsletter: NewsletterRow }> {
  const post = await postById(ctx.db, input.postId);
  if (!post) throw errors.notFound('Post not found.');
  let newsletter: NewsletterRow | null;
  if (input.newsletter) {
    newsletter = await newsletterBySlug(ctx.db, input.newsletter);
    if (!newsletter) throw errors.notFound('Resource could not be found.');
  } else {
    newsletter = (post.newsletter_id && (await findNewsletter(ctx.db, post.newsletter_id))) || (await defaultNewsletter(ctx.db));
  }
  // Ghost always has a newsletter; a site whose every newsletter was archived previews with none and fails.
  if (!newsletter) throw errors.notFound('Resource could not be found.');
  return { post, newsletter };
}

/** Ghost's example member of previews and test sends: Jamie Larson, free or paid as the segment asks. */
function exampleRecipient(segment: string | null, unsubscribeUrl: (uuid: string) => string): RecipientContext {
  return {
    recipientId: 'example-id',
    memberUuid: 'example-uuid',
    email: 'jamie@example.com',
    name: 'Jamie Larson',
    status: segment === 'status:free' ? 'free' : 'paid',
    createdAt: new Date(),
    unsubscribeUrl: unsubscribeUrl('example-uuid'),
    openPixelUrl: null,
  };
}

async function unsubscribeUrls(ctx: Ctx, newsletter: NewsletterRow) {
  const key = (await readSettings(ctx.db, ['members_email_auth_secret'])).get('members_email_auth_secret') ?? '';
  return (uuid: string) => {
    const url = new URL('unsubscribe/', ctx.site.url);
    url.searchParams.set('uuid', uuid);
    url.searchParams.set('key', createHmac('sha256', key).update(uuid).digest('hex'));
    url.searchParams.set('newsletter', newsletter.uuid);
    return url.href;
  };
}

/** `GET /email_previews/posts/:id/`: the post as the example member would get it. */
export async function previewEmail(ctx: Ctx, input: PreviewInput) {
  const { post, newsletter } = await postAndNewsletter(ctx, input);
  const segment = input.memberSegment ?? null;
  const rendered = await renderPostEmail(ctx.db, post, newsletter, segment, { siteUrl: ctx.site.url });
  const personal = personaliseEmail(rendered, exampleRecipient(segment, await unsubscribeUrls(ctx, newsletter)));
  return { subject: rendered.subject, html: personal.html, plaintext: personal.plaintext };
}

/**
 * `POST /email_previews/posts/:id/`: one test copy, subject prefixed `[TEST] `, sent now through the configured
 * mailer (the caller waits for the SMTP server's answer, as Ghost's admin waits for Mailgun's). A member with the
 * address lends their name and uuid to the copy, as in Ghost.
 */
export async function sendTestEmail(ctx: Ctx, input: PreviewInput & { emails: string[] }): Promise<void> {
  if (input.emails.length === 0) throw errors.validation('No emails provided.');
  if (input.emails.length > 1) throw errors.validation('Too many emails provided. Maximum of 1 test email can be sent at once.');
  const { post, newsletter } = await postAndNewsletter(ctx, input);
  const segment = input.memberSegment ?? null;
  const to = input.emails[0]!;
  const urls = await unsubscribeUrls(ctx, newsletter);
  const recipient: RecipientContext = { ...exampleRecipient(segment, urls), email: to, name: '' };
  const member = await memberByEmail(ctx.db, to);
  if (member?.uuid) {
    Object.assign(recipient, {
      memberUuid: member.uuid,
      email: member.email,
      name: member.name,
      createdAt: member.created_at,
      unsubscribeUrl: urls(member.uuid),
    });
    if (segment === 'status:-free' && member.status !== 'free') recipient.status = member.status;
  }
  const rendered = await renderPostEmail(ctx.db, post, newsletter, segment, { siteUrl: ctx.site.url, isTest: true });
  const personal = personaliseEmail(rendered, recipient);
  const settings = await readSettings(ctx.db, ['title', 'members_support_address']);
  const sender = newsletterSender(
    newsletter,
    settings.get('title') ?? '',
    ctx.mailer.fromAddress,
    settings.get('members_support_address') ?? null,
    ctx.site.url,
  );
  try {
    await ctx.mailer.send({
      to,
      subject: rendered.subject,
      html: personal.html,
      text: personal.plaintext,
      fromName: sender.name ?? undefined,
      fromAddress: sender.address,
      replyTo: sender.replyTo ?? undefined,
    });
  } catch (err) {
    throw errors.email({ message: (err as Error).message, context: 'SMTP Error', code: 'BULK_EMAIL_SEND_FAILED' });
  }
}
