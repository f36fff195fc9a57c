import { SERVER_VERSION } from '../../http/api-headers.js';
import { fromStorageUrl } from '../../content/ghost-url.js';
import { SECRET_MASK, SETTINGS, SETTING_KEYS, URL_SETTINGS, isSecretSetting, type SettingKey } from '../../settings/keys.js';
import { calculatedSettings, labsFlags, resolvedValue, type SettingValues, type SiteFacts } from '../../settings/derived.js';

/** Ghost serves the site icon resized to 256×256 wherever it lists settings. */
export const resizedIcon = (url: string) => url.replace(/\/content\/images\//, '/content/images/size/w256h256/');

/** The group Ghost files each calculated key under (what `?group=` selects them by). */
const CALCULATED_GROUPS: Record<keyof ReturnType<typeof calculatedSettings>, string> = {
  members_enabled: 'members',
  members_invite_only: 'members',
  allow_self_signup: 'members',
  paid_members_enabled: 'members',
  firstpromoter_account: 'firstpromoter',
  donations_enabled: 'donations',
  default_email_address: 'email',
  support_email_address: 'email',
  all_blocked_email_domains: 'members',
  social_web_enabled: 'social_web',
  web_analytics_enabled: 'analytics',
  web_analytics_configured: 'analytics',
};

/** A stored value as the Admin API shows it: booleans as booleans, URLs absolute, secrets masked, the rest as stored. */
function adminValue(key: SettingKey, raw: string | null, values: SettingValues, siteUrl: string): unknown {
  if (key === 'labs') return JSON.stringify(labsFlags(values));
  if (raw && isSecretSetting(key)) return SECRET_MASK;
  if (SETTINGS[key].type === 'boolean') return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw;
  if (URL_SETTINGS.has(key) && raw) {
    const url = fromStorageUrl(raw, siteUrl);
    return key === 'icon' ? resizedIcon(url) : url;
  }
  return raw;
}

/**
 * `GET /settings/` (Admin): every setting outside `core` as `{key, value}`, in Ghost's order, then the
 * calculated keys; `groups` keeps only those groups.
 */
export function presentAdminSettings(values: SettingValues, facts: SiteFacts, groups: readonly string[] | null) {
  const wanted = (group: string) => !groups || groups.includes(group);
  const stored = SETTING_KEYS.filter((key) => SETTINGS[key].group !== 'core' && wanted(SETTINGS[key].group)).map((key) => ({
    key,
    value: adminValue(key, values.get(key) ?? null, values, facts.siteUrl),
  }));
  const calculated = Object.entries(calculatedSettings(values, facts))
    .filter(([key]) => wanted(CALCULATED_GROUPS[key as keyof typeof CALCULATED_GROUPS]))
    .map(([key, value]) => ({ key, value }));
  return [...stored, ...calculated];
}

/** Ghost's public settings (`settings-cache/public.js`): the Content API name and the setting it shows. */
const PUBLIC_SETTINGS = [
  ['title', 'title'],
  ['description', 'description'],
  ['logo', 'logo'],
  ['icon', 'icon'],
  ['accent_color', 'accent_color'],
  ['cover_image', 'cover_image'],
  ['facebook', 'facebook'],
  ['twitter', 'twitter'],
  // Ghost 6's additions, where Ghost 6 puts them (additions only: every Ghost 5 key keeps its name and value).
  ['threads', 'threads'],
  ['bluesky', 'bluesky'],
  ['mastodon', 'mastodon'],
  ['tiktok', 'tiktok'],
  ['youtube', 'youtube'],
  ['instagram', 'instagram'],
  ['linkedin', 'linkedin'],
  ['locale', 'locale'],
  ['timezone', 'timezone'],
  ['codeinjection_head', 'codeinjection_head'],
  ['codeinjection_foot', 'codeinjection_foot'],
  ['navigation', 'navigation'],
  ['secondary_navigation', 'secondary_navigation'],
  ['meta_title', 'meta_title'],
  ['meta_description', 'meta_description'],
  ['og_image', 'og_image'],
  ['og_title', 'og_title'],
  ['og_description', 'og_description'],
  ['twitter_image', 'twitter_image'],
  ['twitter_title', 'twitter_title'],
  ['twitter_description', 'twitter_description'],
  ['members_support_address', 'members_support_address'],
  ['members_enabled', 'members_enabled'],
  ['donations_enabled', 'donations_enabled'],
  ['allow_self_signup', 'allow_self_signup'],
  ['members_invite_only', 'members_invite_only'],
  ['members_signup_access', 'members_signup_access'],
  ['paid_members_enabled', 'paid_members_enabled'],
  ['firstpromoter_account', 'firstpromoter_account'],
  ['portal_button_style', 'portal_button_style'],
  ['portal_button_signup_text', 'portal_button_signup_text'],
  ['portal_button_icon', 'portal_button_icon'],
  ['portal_signup_terms_html', 'portal_signup_terms_html'],
  ['portal_signup_checkbox_required', 'portal_signup_checkbox_required'],
  ['portal_signup_gift_promotion', 'portal_signup_gift_promotion'],
  ['portal_account_gift_promotion', 'portal_account_gift_promotion'],
  ['portal_plans', 'portal_plans'],
  ['portal_default_plan', 'portal_default_plan'],
  ['portal_name', 'portal_name'],
  ['portal_button', 'portal_button'],
  ['comments_enabled', 'comments_enabled'],
  ['recommendations_enabled', 'recommendations_enabled'],
  ['outbound_link_tagging', 'outbound_link_tagging'],
  ['default_email_address', 'default_email_address'],
  ['support_email_address', 'support_email_address'],
  ['editor_default_email_recipients', 'editor_default_email_recipients'],
  ['labs', 'labs'],
  ['transistor_portal_enabled', 'transistor_portal_enabled'],
  ['transistor_portal_heading', 'transistor_portal_heading'],
  ['transistor_portal_description', 'transistor_portal_description'],
  ['transistor_portal_button_text', 'transistor_portal_button_text'],
  ['transistor_portal_url_template', 'transistor_portal_url_template'],
  ['site_uuid', 'site_uuid'],
  // Ghost builds the object from the settings' own names first, so the one alias comes last.
  ['lang', 'locale'],
] as const;

type CalculatedKey = keyof ReturnType<typeof calculatedSettings>;

/** A stored setting as Ghost's public readers see it (`resolvedValue`), URLs absolute. */
export function publicValue(key: SettingKey, values: SettingValues, siteUrl: string): unknown {
  const raw = values.get(key) ?? null;
  return resolvedValue(key, URL_SETTINGS.has(key) && raw ? fromStorageUrl(raw, siteUrl) : raw);
}

/** `GET /settings/` (Content): one object of the public settings, then the site's `url` and `version`. */
export function presentContentSettings(values: SettingValues, facts: SiteFacts) {
  const calculated = calculatedSettings(values, facts);
  const settings: Record<string, unknown> = {};
  for (const [name, source] of PUBLIC_SETTINGS) {
    settings[name] = source in calculated ? resolvedCalculated(calculated[source as CalculatedKey]) : publicValue(source as SettingKey, values, facts.siteUrl);
  }
  if (typeof settings.icon === 'string') settings.icon = resizedIcon(settings.icon);
  settings.url = facts.siteUrl;
  settings.version = SERVER_VERSION;
  return settings;
}

/** Ghost's resolution keeps `false` and turns every other empty value (null, "") into null. */
function resolvedCalculated(value: unknown): unknown {
  return value === false ? false : value || null;
}
