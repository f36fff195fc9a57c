import type { Rendered } from './templates.js';

/**
 * The Members API's magic-link mails: Ghost 5.130.6's subjects and text word for word (mail filters and
 * readers' habits carry over), in a plain, single-column html of our own with the site's accent colour.
 */
export type MagicLinkType = 'signin' | 'signup' | 'subscribe' | 'updateEmail';

export interface MagicLinkMail {
  type: MagicLinkType;
  url: string;
  email: string;
  siteTitle: string;
  siteUrl: string;
  accentColor: string;
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

interface Wording {
  subject: string;
  /** Heading line of the html mail. */
  greeting: string;
  lead: string;
  button: string;
  closing: string | null;
  /** The footer's "did not ask for this" line. */
  ignore: string;
}

function wordingOf(type: MagicLinkType, siteTitle: string): Wording {
  switch (type) {
    case 'subscribe':
      return {
        subject: `📫 Confirm your subscription to ${siteTitle}`,
        greeting: 'Hey there,',
        lead: `You're one tap away from subscribing to ${siteTitle} — please confirm your email address with this link:`,
        button: 'Confirm email address',
        closing: 'All the best!',
        ignore: 'If you did not make this request, you can simply delete this message. You will not be subscribed.',
      };
    case 'signup':
      return {
        subject: `🙌 Complete your sign up to ${siteTitle}!`,
        greeting: 'Hey there!',
        lead: `Tap the link below to complete the signup process for ${siteTitle}, and be automatically signed in:`,
        button: 'Confirm signup',
        closing: 'See you soon!',
        ignore: 'If you did not make this request, you can simply delete this message. You will not be signed up, and no account will be created for you.',
      };
    case 'updateEmail':
      return {
        subject: `📫 Confirm your email update for ${siteTitle}!`,
        greeting: 'Hey there,',
        lead: 'Please confirm your email address with this link:',
        button: 'Confirm email address',
        closing: null,
        ignore: 'If you did not make this request, you can simply delete this message. This email address will not be used.',
      };
    case 'signin':
      return {
        subject: `🔑 Secure sign in link for ${siteTitle}`,
        greeting: 'Hey there,',
        lead: `Welcome back! Use this link to securely sign in to your ${siteTitle} account:`,
        button: `Sign in to ${siteTitle}`,
        closing: 'See you soon!',
        ignore: 'If you did not make this request, you can safely ignore this email.',
      };
  }
}

/** Ghost's text body (its `trimLeadingWhitespace` output): greeting, lead, link, expiry, closing, footer. */
function textOf(w: Wording, url: string, email: string): string {
  const lines = ['Hey there,', '', w.lead, '', url, '', 'For your security, the link will expire in 24 hours time.', ''];
  if (w.closing) lines.push(w.closing, '');
  lines.push('---', '', `Sent to ${email}`, w.ignore);
  return lines.join('\n');
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

function htmlOf(w: Wording, d: MagicLinkMail): string {
  const url = escapeHtml(d.url);
  const accent = /^#[0-9a-fA-F]{3,8}$/.test(d.accentColor) ? d.accentColor : '#15212A';
  const host = escapeHtml(new URL(d.siteUrl).hostname);
  const p = (text: string, style = 'font-size:16px;line-height:24px;color:#3A464C;margin:0 0 24px') => `<p style="${style}">${text}</p>`;
  return `<!doctype html>
<html><head><meta name="viewport" content="width=device-width"><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><title>${escapeHtml(w.subject)}</title></head>
<body style="font-family:${FONT};background:#ffffff;margin:0;padding:30px 20px">
<div style="max-width:540px;margin:0 auto">
${p(escapeHtml(w.greeting), 'font-size:20px;line-height:24px;color:#15212A;font-weight:bold;margin:0 0 15px')}
${p(escapeHtml(w.lead))}
<p style="margin:0 0 32px"><a href="${url}" style="display:inline-block;color:#ffffff;background:${accent};border-radius:5px;padding:9px 22px 10px;text-decoration:none;font-size:16px">${escapeHtml(w.button)}</a></p>
${p('For your security, the link will expire in 24 hours time.')}
${w.closing ? p(escapeHtml(w.closing)) : ''}
${p('You can also copy &amp; paste this URL into your browser:', 'font-size:15px;line-height:24px;color:#3A464C;margin:0')}
${p(url, 'word-break:break-all;font-size:15px;line-height:22px;color:#3A464C;margin:0 0 40px')}
${p(escapeHtml(w.ignore), 'font-size:11px;line-height:16px;color:#738A94;margin:0')}
${p(`This message was sent from <a href="${escapeHtml(d.siteUrl)}" style="color:#738A94">${host}</a> to <a href="mailto:${escapeHtml(d.email)}" style="color:#738A94">${escapeHtml(d.email)}</a>`, 'font-size:11px;line-height:16px;color:#738A94;margin:0')}
</div></body></html>
`;
}

export function magicLinkMail(d: MagicLinkMail): Rendered {
  const w = wordingOf(d.type, d.siteTitle);
  return { subject: w.subject, text: textOf(w, d.url, d.email), html: htmlOf(w, d) };
}
