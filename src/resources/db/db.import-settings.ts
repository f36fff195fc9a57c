import { SETTINGS, WRITABLE_LABS_FLAGS, isSettingKey, type SettingKey } from '../../settings/keys.js';
import { writeSettings } from '../../settings/settings.js';
import type { ImportRun } from './db.import-run.js';

/** Ghost's SettingsImporter drops these keys: old, deprecated, secret or tied to a verified address or a payment account. */
const IGNORED = new Set([
  'slack_url',
  'members_from_address',
  'members_support_address',
  'portal_products',
  'email_verification_required',
  'site_uuid',
  'is_private',
  'password',
  'members_subscription_settings',
  'stripe_connect_integration',
  'bulk_email_settings',
]);
/** Keys renamed since Ghost 1–3. */
const RENAMED: Record<string, string> = { default_locale: 'locale', lang: 'locale', active_timezone: 'timezone' };

/**
 * Settings, as Ghost's SettingsImporter: existing keys outside the `core` and `theme` groups take the file's
 * value; unknown keys are passed over without a word; the active theme is reported (themes are uploaded,
 * not imported); labs keep only flags a site may switch. Values are stored in this site's text form.
 */
export async function importSettings(run: ImportRun): Promise<void> {
  const settings = run.rows('settings');
  if (settings.length === 0) return;
  const activeTheme = settings.find((setting) => setting.key === 'active_theme');
  if (activeTheme) run.problem('Theme not imported, please upload in Settings - Design', 'Settings', activeTheme);
  const values: Partial<Record<SettingKey, string | null>> = {};
  for (const setting of settings) {
    let key = String(setting.key);
    key = RENAMED[key] ?? key;
    let value = setting.value;
    if (key === 'members_allow_free_signup') {
      key = 'members_signup_access';
      value = value && value !== 'false' && value !== '0' ? 'all' : 'invite';
    }
    if (IGNORED.has(key) || !isSettingKey(key)) continue;
    const group = SETTINGS[key].group;
    if (group === 'core' || group === 'theme') continue;
    values[key] = storedValue(key, value);
  }
  if (Object.keys(values).length === 0) return;
  await writeSettings(run.w.db, values, run.w.clock.now());
  run.counts.settings = Object.keys(values).length;
}

function storedValue(key: SettingKey, value: unknown): string | null {
  if (value === null || value === undefined) return key === 'accent_color' ? '#15171A' : null;
  if (key === 'labs') return labsValue(value);
  if (SETTINGS[key].type === 'boolean') return value === true || value === 1 || value === '1' || value === 'true' ? 'true' : 'false';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The switchable flags of the file, over this site's defaults. */
function labsValue(value: unknown): string {
  let flags: Record<string, unknown> = {};
  try {
    flags = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
  } catch {
    // Unreadable labs keep the defaults.
  }
  const kept = Object.fromEntries(Object.entries(flags ?? {}).filter(([flag]) => WRITABLE_LABS_FLAGS.includes(flag)));
  return JSON.stringify({ ...kept, ...(JSON.parse(SETTINGS.labs.default ?? '{}') as object) });
}
