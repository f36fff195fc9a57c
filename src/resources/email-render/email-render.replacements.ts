/**
 * Ghost's per-recipient replacement strings: `%%{name}%%`, with an optional fallback `%%{first_name, "there"}%%`
 * (the quotes may be html-escaped). Unknown names stay as written, as in Ghost. A recipient's copy is the
 * rendered email with every known token replaced.
 */
export interface ReplacementMember {
  uuid: string;
  email: string;
  name: string | null;
  status: 'free' | 'paid' | 'comped';
  createdAt: Date | null;
  /** HMAC of the uuid with the site's members validation key (the unsubscribe link's `key`). */
  key: string;
  unsubscribeUrl: string;
  manageAccountUrl: string;
  /** The site's timezone, for `created_at`. */
  timezone: string;
}

/** A long date in Ghost's email locale (en-GB, as Ghost uses unless its i18n lab is on). */
export function longDate(date: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'long', day: 'numeric', timeZone: timezone }).format(date);
}

const VALUES: Record<string, (m: ReplacementMember) => string | null | undefined> = {
  unsubscribe_url: (m) => m.unsubscribeUrl,
  list_unsubscribe: (m) => m.unsubscribeUrl,
  manage_account_url: (m) => m.manageAccountUrl,
  uuid: (m) => m.uuid,
  key: (m) => m.key,
  first_name: (m) => m.name?.split(' ')[0],
  name: (m) => m.name,
  name_class: (m) => (m.name ? '' : 'hidden'),
  email: (m) => m.email,
  created_at: (m) => (m.createdAt ? longDate(m.createdAt, m.timezone) : ''),
  status: (m) => (m.status === 'comped' ? 'complimentary' : m.status),
  // Ghost words the renewal or expiry of a Stripe subscription here; Quire has no subscriptions, so a paid or
  // comped member reads what Ghost shows for a complimentary one without an expiry: nothing.
  status_text: () => '',
};

const TOKEN = /%%\{(\w+?)(?:,? *(?:"|&quot;)(.*?)(?:"|&quot;))?\}%%/g;

export function replaceTokens(text: string, member: ReplacementMember): string {
  return text.replace(TOKEN, (whole, id: string, fallback: string | undefined) => {
    const value = VALUES[id];
    if (!value) return whole;
    const got = value(member);
    // Ghost falls back on any falsy value (an empty name too); without a fallback an absent value prints as Ghost's
    // String.replace prints it.
    if (fallback !== undefined) return got || fallback;
    return String(got);
  });
}
