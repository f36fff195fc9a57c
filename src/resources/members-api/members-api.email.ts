import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { readAllSettings } from '../../settings/settings.js';
import { calculatedSettings } from '../../settings/derived.js';
import { magicLinkMail } from '../../mail/member-templates.js';
import { siteFacts } from '../settings/settings.service.js';
import { createMagicToken } from './members-api.tokens.js';
import { signinUrl } from './members-api.send.js';
import { identityIssuer, memberKeys } from './members-api.session.js';
import { findMemberEmail } from './members-api.queries.js';
import { verifyIdentityToken } from '../../auth/member-session.js';

type Outcome = { status: 201 | 401 | 403 | 500; body: string };

/**
 * `POST /member/email/` (Ghost's updateEmailAddress): the member, named by an identity token, asks to move to
 * a new address; a confirmation link goes to the new address and the change happens when it is opened.
 */
export async function requestEmailChange(ctx: Ctx, body: Record<string, unknown>): Promise<Outcome> {
  const { identity, email } = body;
  if (!identity) return { status: 403, body: 'No Permission.' };
  if (typeof email !== 'string' || !email) throw errors.badRequest('Email is required.');
  const settings = await readAllSettings(ctx.db);
  const domain = email.split('@')[1]?.toLowerCase();
  if (domain && calculatedSettings(settings, siteFacts(ctx)).all_blocked_email_domains.includes(domain)) {
    throw errors.badRequest('Signups from this email domain are currently restricted.');
  }
  const { privateKey } = await memberKeys(ctx);
  const subject = typeof identity === 'string' ? verifyIdentityToken(privateKey, identityIssuer(ctx.site.url), identity, ctx.clock.epochMs()) : null;
  const member = subject ? await findMemberEmail(ctx.db, subject) : undefined;
  if (!member) return { status: 401, body: 'Unauthorized.' };
  try {
    const token = await createMagicToken(ctx, { email, type: 'updateEmail', oldEmail: member.email });
    const siteTitle = settings.get('title') ?? '';
    const url = signinUrl(ctx.site.url, token, 'updateEmail', null);
    const mail = magicLinkMail({ type: 'updateEmail', url, email, siteTitle, siteUrl: ctx.site.url, accentColor: settings.get('accent_color') ?? '' });
    await ctx.mailer.send({ to: email, ...mail, fromName: siteTitle || undefined });
  } catch {
    return { status: 500, body: 'Internal Server Error.' };
  }
  return { status: 201, body: 'Created.' };
}
