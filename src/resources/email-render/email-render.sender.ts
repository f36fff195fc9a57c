import { isEmail } from '../../db/string-checks.js';
import type { NewsletterRow } from '../../db/schema.js';

/** Who a newsletter's e-mail is from. */
export interface From {
  /** The plain name for SMTP, or null. */
  name: string | null;
  address: string;
  /** Ghost's `from` string, stored in `emails.from`: `"Name" <address>`, or the address alone. */
  from: string;
}

export interface Sender extends From {
  replyTo: string | null;
}

/** Characters Gmail rejects in sender names (Ghost's `EmailAddressParser.stringify`). */
const CHECK_MARKS = /[\u2705\u2713\u2714\u2611\u{1F5F8}]/gu;

/**
 * A newsletter's sender as Ghost 5.130.6 works it out on a self-hosted site (`getFromAddress`, which Ghost also
 * stores in `emails.from`): the newsletter's name (or the site title, its quotes escaped) and address (or the
 * default address); an address that is not a valid e-mail (a site on an IP address) falls back to the default
 * address alone.
 */
export function newsletterFrom(newsletter: NewsletterRow, siteTitle: string, defaultAddress: string): From {
  const address = newsletter.sender_email || defaultAddress;
  if (!isEmail(address)) return { name: null, address: defaultAddress, from: defaultAddress };
  // Ghost drops check marks Gmail rejects in sender names; its `from` string escapes the name's quotes (the site
  // title's twice, as Ghost escapes them once more when it writes the name). `name` is the plain name for SMTP.
  const plain = (newsletter.sender_name || siteTitle).replace(CHECK_MARKS, '').trim();
  const named = newsletter.sender_name || siteTitle.replace(/"/g, '\\"');
  // A name left empty by the cleaning still makes a quoted (empty) name, as in Ghost.
  const from = named ? `"${named.replace(/"/g, '\\"').replace(CHECK_MARKS, '').trim()}" <${address}>` : address;
  return { name: plain || null, address, from };
}

/** The sender with its Reply-To: `newsletter` is the sender itself, `support` the members support address, anything else that address. */
export function newsletterSender(newsletter: NewsletterRow, siteTitle: string, defaultAddress: string, supportSetting: string | null, siteUrl: string): Sender {
  const sender = newsletterFrom(newsletter, siteTitle, defaultAddress);
  const replyTo = newsletter.sender_reply_to;
  if (replyTo === 'newsletter') return { ...sender, replyTo: sender.from };
  if (replyTo === 'support') {
    const support = supportSetting || 'noreply';
    return { ...sender, replyTo: support.includes('@') ? support : `${support}@${new URL(siteUrl).hostname.replace(/^www\./, '')}` };
  }
  return { ...sender, replyTo: replyTo || null };
}
