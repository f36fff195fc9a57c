import type { ReadDb } from '../../db/read-db.js';
import type { NewsletterRow, PostRow } from '../../db/schema.js';

/**
 * The mail a newsletter send delivers: a deliberately plain rendering (the post's html in a simple wrapper,
 * Ghost's replacements, the unsubscribe link and the open pixel). The newsletter design is rendered by the
 * email-render resource proper; this file keeps its interface, and sending depends only on that.
 */
export interface RenderedEmail {
  subject: string;
  html: string;
  plaintext: string;
}

export interface RecipientContext {
  recipientId: string;
  memberUuid: string;
  email: string;
  name: string | null;
  status: 'free' | 'paid' | 'comped';
  createdAt: Date;
  unsubscribeUrl: string;
  openPixelUrl: string | null;
}

const PAYWALL = '<!--members-only-->';
const SEGMENTED = /data-gh-segment=/;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function textOf(html: string): string {
  return html
    .replace(/<(br|\/p|\/h[1-6]|\/li|\/blockquote|\/div)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The post for one segment: members-only content stops at the paywall for free members of a paid post. */
export async function renderPostEmail(
  _db: ReadDb,
  post: PostRow,
  newsletter: NewsletterRow,
  segment: string | null,
): Promise<RenderedEmail & { segments: string[] }> {
  let body = post.html ?? '';
  const gated = post.visibility !== 'public' && body.includes(PAYWALL);
  const segments = gated || SEGMENTED.test(body) ? ['status:free', 'status:-free'] : [];
  if (gated && segment === 'status:free') body = body.slice(0, body.indexOf(PAYWALL));
  const subject = post.title;
  const html = [
    '<!doctype html><html><head><meta charset="utf-8"><title>',
    escapeHtml(subject),
    '</title></head><body><div class="email">',
    `<p class="newsletter">${escapeHtml(newsletter.name)}</p><h1>${escapeHtml(post.title)}</h1>`,
    body,
    '<p class="footer"><a href="%%{unsubscribe_url}%%">Unsubscribe</a></p>',
    '%%{open_pixel}%%</div></body></html>',
  ].join('');
  const plaintext = `${post.title}\n\n${textOf(body)}\n\nUnsubscribe: %%{unsubscribe_url}%%\n`;
  return { subject, html, plaintext, segments };
}

/** `{first_name, "there"}` as the editor writes it, or `%%{first_name, "there"}%%`: a member's value or the fallback. */
const REPLACEMENT = /%%\{(\w+)(?:,? *"([^"]*)")?\}%%|\{(first_name|name|email|uuid|key)(?:,? *"([^"]*)")?\}/g;

function valueOf(key: string, recipient: RecipientContext): string {
  switch (key) {
    case 'first_name':
      return recipient.name?.trim().split(/\s+/)[0] ?? '';
    case 'name':
      return recipient.name ?? '';
    case 'email':
      return recipient.email;
    case 'uuid':
      return recipient.memberUuid;
    case 'unsubscribe_url':
      return recipient.unsubscribeUrl;
    default:
      return '';
  }
}

export function personaliseEmail(email: RenderedEmail, recipient: RecipientContext): { html: string; plaintext: string } {
  const pixel = recipient.openPixelUrl ? `<img src="${escapeHtml(recipient.openPixelUrl)}" width="1" height="1" alt="" style="display:none">` : '';
  const fill = (escape: (text: string) => string) => (match: string, k1?: string, f1?: string, k2?: string, f2?: string) => {
    const key = (k1 ?? k2)!;
    if (key === 'open_pixel') return escape === escapeHtml ? pixel : '';
    const value = valueOf(key, recipient) || (f1 ?? f2 ?? '');
    return escape(value);
  };
  return {
    html: email.html.replace(REPLACEMENT, fill(escapeHtml)),
    plaintext: email.plaintext.replace(
      REPLACEMENT,
      fill((text) => text),
    ),
  };
}
