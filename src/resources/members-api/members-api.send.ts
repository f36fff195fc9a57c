import { isEmail } from '../../db/string-checks.js';
import type { Ctx } from '../../ctx.js';
import { errors, GhostError } from '../../errors.js';
import { readAllSettings } from '../../settings/settings.js';
import { siteFacts } from '../settings/settings.service.js';
import { calculatedSettings } from '../../settings/derived.js';
import { magicLinkMail, type MagicLinkType } from '../../mail/member-templates.js';
import { findMemberByEmail } from '../members/members.queries.js';
import { createMagicToken, pruneMagicTokens, type MagicLinkData } from './members-api.tokens.js';
import { attributionOf, labelNames, memberName, normalizeEmail, validateNewsletters } from './members-api.input.js';

/** `POST /members/api/send-magic-link/`'s body, as Portal and `data-members-form` forms send it. */
export interface SendMagicLinkBody {
  email?: unknown;
  emailType?: unknown;
  honeypot?: unknown;
  name?: unknown;
  labels?: unknown;
  newsletters?: unknown;
  urlHistory?: unknown;
  redirect?: unknown;
  autoRedirect?: unknown;
  integrityToken?: unknown;
}

/** What the route answers: Ghost writes a bare `201 Created.` or `400 Bad Request.`, not JSON. */
export type SendOutcome = { status: 201; body: 'Created.' } | { status: 400; body: 'Bad Request.' };

const CREATED: SendOutcome = { status: 201, body: 'Created.' };

/** The magic link's address: `<site>/members/?token=…&action=…[&r=…]` (Ghost's getSigninURL). */
export function signinUrl(siteUrl: string, token: string, type: string, referrer: string | null): string {
  const url = new URL('members/', siteUrl);
  url.searchParams.set('token', token);
  url.searchParams.set('action', type);
  if (referrer) url.searchParams.set('r', referrer);
  return url.toString();
}

/** Ghost's RouterController.sendMagicLink, after the integrity check and the limits (the route runs those). */
export async function sendMagicLink(ctx: Ctx, body: SendMagicLinkBody, request: { referer: string | null; ip: string }): Promise<SendOutcome> {
  let referrer = body.autoRedirect === false ? null : request.referer;
  if (typeof body.redirect === 'string' && body.redirect) {
    try {
      referrer = new URL(body.redirect).href;
    } catch {
      // Ghost logs and keeps the Referer.
    }
  }
  const email = typeof body.email === 'string' ? body.email : '';
  if (!email) throw errors.badRequest('Email is required.');
  if (!isEmail(email)) throw errors.badRequest('Email is not valid');
  const normalized = normalizeEmail(email);
  if (!normalized) throw errors.badRequest('Email is not valid');
  // A bot filled the hidden field: pretend the mail went out.
  if (body.honeypot) return CREATED;
  const emailType = body.emailType === undefined || body.emailType === null || body.emailType === '' ? 'subscribe' : body.emailType;
  if (emailType !== 'signin' && emailType !== 'signup' && emailType !== 'subscribe') return { status: 400, body: 'Bad Request.' };

  const settings = await readAllSettings(ctx.db);
  const allowSelfSignup = settings.get('members_signup_access') === 'all';
  const existing = await findMemberByEmail(ctx.db, ctx.engine, normalized);
  let tokenData: MagicLinkData = {};
  if (emailType === 'signin') {
    if (!existing) {
      throw errors.badRequest(
        allowSelfSignup ? 'No member exists with this e-mail address. Please sign up first.' : 'No member exists with this e-mail address.',
      );
    }
  } else {
    if (!allowSelfSignup) {
      throw errors.badRequest(
        settings.get('members_signup_access') === 'paid' ? 'This site only accepts paid members.' : 'This site is invite-only, contact the owner for access.',
      );
    }
    const blocked = calculatedSettings(settings, siteFacts(ctx)).all_blocked_email_domains;
    const domain = normalized.split('@')[1]?.toLowerCase();
    if (domain && blocked.includes(domain)) throw errors.badRequest('Signups from this email domain are currently restricted.');
    tokenData = {
      labels: labelNames(body.labels),
      name: memberName(body.name),
      reqIp: request.ip,
      newsletters: await validateNewsletters(ctx, body.newsletters),
      attribution: await attributionOf(ctx, body.urlHistory),
    };
  }
  // An existing member always gets a sign-in link; a new address the type asked for.
  const type: MagicLinkType = existing ? 'signin' : emailType === 'subscribe' ? 'subscribe' : 'signup';
  const token = await createMagicToken(ctx, { email: normalized, type, ...tokenData });
  const url = signinUrl(ctx.site.url, token, type, referrer);
  const siteTitle = settings.get('title') ?? '';
  const mail = magicLinkMail({ type, url, email: normalized, siteTitle, siteUrl: ctx.site.url, accentColor: settings.get('accent_color') ?? '' });
  try {
    await ctx.mailer.send({ to: normalized, ...mail, fromName: siteTitle || undefined });
  } catch (err) {
    if (err instanceof GhostError) throw err;
    // nodemailer's refusal of the recipient (Ghost answers a bare 400).
    if ((err as { code?: string }).code === 'EENVELOPE') return { status: 400, body: 'Bad Request.' };
    throw errors.email({
      message: `Failed to send email. Reason: ${(err as Error).message}.`,
      help: 'Please see https://ghost.org/docs/config/#mail for instructions on configuring email.',
      cause: err,
    });
  }
  // Expired records are of no use: drop them now and then, as Ghost's daily job does.
  if (Math.random() < 0.02) await pruneMagicTokens(ctx);
  return CREATED;
}
