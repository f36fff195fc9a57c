import validator from 'validator';
import type { NewsletterRow } from '../../db/schema.js';

/**
 * A newsletter's sender as Ghost 5.130.6 works it out on a self-hosted site: the newsletter's name (or the site
 * title, its quotes escaped) and address (or the default address); an address that is not a valid e-mail (a site
 * on an IP address) falls back to the default address alone. Reply-To: `newsletter` is the sender itself,
 * `support` the members support address, anything else that address.
 */
export interface Sender {
  name: string | null;
  address: string;
  /** Ghost's `from` string: `"Name" <address>`, or the address alone. */
  from: string;
  replyTo: string | null;
}

export function newsletterSender(newsletter: NewsletterRow, siteTitle: string, defaultAddress: string, supportSetting: string | null, siteUrl: string): Sender {
  const address = newsletter.sender_email || defaultAddress;
  let sender: Omit<Sender, 'replyTo'>;
  if (!validator.isEmail(address)) {
    sender = { name: null, address: defaultAddress, from: defaultAddress };
  } else {
    // Ghost drops check marks Gmail rejects in sender names; its `from` string escapes the name's quotes (the site
    // title's twice, as Ghost escapes them once more when it writes the name). `name` is the plain name for SMTP.
    const plain = (newsletter.sender_name || siteTitle).replace(/[\u2705\u2713\u2714\u2611\u{1F5F8}]/gu, '').trim();
    const quoted = (newsletter.sender_name || siteTitle.replace(/"/g, '\\"'))
      .replace(/"/g, '\\"')
      .replace(/[\u2705\u2713\u2714\u2611\u{1F5F8}]/gu, '')
      .trim();
    sender = { name: plain || null, address, from: quoted ? `"${quoted}" <${address}>` : address };
  }
  const replyTo = newsletter.sender_reply_to;
  if (replyTo === 'newsletter') return { ...sender, replyTo: sender.from };
  if (replyTo === 'support') {
    const support = supportSetting || 'noreply';
    return { ...sender, replyTo: support.includes('@') ? support : `${support}@${new URL(siteUrl).hostname.replace(/^www\./, '')}` };
  }
  return { ...sender, replyTo: replyTo || null };
}
