import { isIP } from 'node:net';
import { GA_LABS_FLAGS, SETTINGS, type SettingKey } from './keys.js';

/** Stored values of every setting (`readAllSettings`). */
export type SettingValues = ReadonlyMap<SettingKey, string | null>;

/**
 * A stored value as Ghost's settings cache resolves it for its readers (the Content API, `/site/`, the
 * calculated keys): `"false"` is false, an empty string is null, number-like strings stay strings, and
 * anything else that parses as JSON is parsed (`"true"` → true, arrays, objects).
 */
export function resolvedValue(key: SettingKey, raw: string | null): unknown {
  if (raw === 'false') return false;
  if (raw === null || raw === '') return null;
  if (SETTINGS[key].type === 'string') return raw;
  if (!Number.isNaN(Number(raw))) return raw;
  try {
    return (JSON.parse(raw) as unknown) || null;
  } catch {
    return raw;
  }
}

/** Who the announcement bar is for (`visitors`, `free_members`, `paid_members`): the stored list, or none. */
export function announcementVisibility(stored: string | null | undefined): unknown[] {
  try {
    const parsed: unknown = JSON.parse(stored ?? '[]');
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

export const resolve = (values: SettingValues, key: SettingKey) => resolvedValue(key, values.get(key) ?? null);

/** What calculated keys need besides the settings: where the site lives and whom it mails from. */
export interface SiteFacts {
  readonly siteUrl: string;
  /** `MAIL_FROM`, possibly with a display name (`Name <address>`). */
  readonly mailFrom: string;
}

/** Ghost's `labs.getAll()`: the stored flags, the flags Ghost always has on, and `members`. */
export function labsFlags(values: SettingValues): Record<string, unknown> {
  let stored: unknown = {};
  try {
    stored = JSON.parse(values.get('labs') ?? '{}');
  } catch {
    stored = {};
  }
  const flags: Record<string, unknown> = stored && typeof stored === 'object' && !Array.isArray(stored) ? { ...(stored as object) } : {};
  for (const flag of GA_LABS_FLAGS) flags[flag] = true;
  flags.members = resolve(values, 'members_signup_access') !== 'none';
  return flags;
}

function stripeConnected(values: SettingValues): boolean {
  const pair = (secret: SettingKey, publishable: SettingKey) => Boolean(resolve(values, secret)) && Boolean(resolve(values, publishable));
  return pair('stripe_connect_secret_key', 'stripe_connect_publishable_key') || pair('stripe_secret_key', 'stripe_publishable_key');
}

/** The site's mail domain: its host without `www.`. */
function mailDomain(siteUrl: string): string {
  return new URL(siteUrl).hostname.replace(/^www\./, '');
}

function defaultEmail(mailFrom: string): { address: string; name: string | null } {
  const named = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(mailFrom);
  return named ? { address: named[2]!.trim(), name: named[1]!.trim() || null } : { address: mailFrom.trim(), name: null };
}

function supportEmailAddress(values: SettingValues, facts: SiteFacts): string {
  const support = resolve(values, 'members_support_address');
  if (!support || typeof support !== 'string') {
    const { address, name } = defaultEmail(facts.mailFrom);
    return name ? `"${name}" <${address}>` : address;
  }
  return support.includes('@') ? support : `${support}@${mailDomain(facts.siteUrl)}`;
}

function blockedEmailDomains(values: SettingValues): string[] {
  const listed = resolve(values, 'blocked_email_domains');
  if (!Array.isArray(listed)) return [];
  const domains = listed
    .map((domain: unknown) => (typeof domain === 'string' && domain ? domain.trim().toLowerCase().split('@').pop()! : ''))
    .filter((domain) => domain.includes('.'));
  return [...new Set(domains)];
}

/**
 * Social web (ActivityPub) needs the switch, the labs flag, a site at the root of its host, and a public host:
 * Ghost refuses it for localhost and IP addresses in production, which is what this service always runs as.
 */
function socialWebEnabled(values: SettingValues, siteUrl: string): boolean {
  if (resolve(values, 'social_web') !== true || labsFlags(values).ActivityPub !== true) return false;
  const url = new URL(siteUrl);
  if (url.pathname !== '/') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host !== 'localhost' && isIP(host) === 0;
}

/**
 * Ghost's calculated settings, in its order, as its settings cache resolves them. Web analytics needs a
 * Tinybird account this service has no configuration for, so it is never configured.
 */
export function calculatedSettings(values: SettingValues, facts: SiteFacts) {
  const access = resolve(values, 'members_signup_access');
  const membersEnabled = access !== 'none';
  const stripe = stripeConnected(values);
  return {
    members_enabled: membersEnabled,
    members_invite_only: access === 'invite',
    allow_self_signup: access === 'all',
    paid_members_enabled: membersEnabled && stripe,
    firstpromoter_account: resolve(values, 'firstpromoter') ? (resolve(values, 'firstpromoter_id') ?? null) : null,
    // Ghost's `enableTipsAndDonations` is on by default: donations follow Stripe.
    donations_enabled: stripe,
    default_email_address: defaultEmail(facts.mailFrom).address,
    support_email_address: supportEmailAddress(values, facts),
    all_blocked_email_domains: blockedEmailDomains(values),
    social_web_enabled: socialWebEnabled(values, facts.siteUrl),
    web_analytics_enabled: false,
    web_analytics_configured: false,
  };
}

export type CalculatedSettings = ReturnType<typeof calculatedSettings>;
