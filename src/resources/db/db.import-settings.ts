import { SETTINGS, WRITABLE_LABS_FLAGS, isSettingKey, type SettingKey } from '../../settings/keys.js';
import { writeSettings } from '../../settings/settings.js';
import type { FileRow, ImportRun } from './db.import-run.js';

/**
 * Ghost's SettingsImporter drops these keys: old, deprecated, secret or tied to a verified address or a payment
 * account. Each is named in `problems` with the reason.
 */
const IGNORED: Record<string, string> = {
  slack_url: 'Slack webhooks are set again on the new site.',
  members_from_address: 'An address to send from is verified by the site that sends.',
  members_support_address: 'An address to send from is verified by the site that sends.',
  portal_products: 'Replaced by the tiers themselves.',
  email_verification_required: "The site's own.",
  site_uuid: "The site's own.",
  is_private: 'Private mode and its password are set again on the new site, as Ghost does.',
  password: 'Private mode and its password are set again on the new site, as Ghost does.',
  members_subscription_settings: 'A setting of Ghost before 4.',
  stripe_connect_integration: 'Stripe is connected again on the new site.',
  bulk_email_settings: 'A setting of Ghost before 4.',
};
/** Keys renamed since Ghost 1–3. */
const RENAMED: Record<string, string> = { default_locale: 'locale', lang: 'locale', active_timezone: 'timezone' };

/**
 * Settings, as Ghost's SettingsImporter: existing keys outside the `core` and `theme` groups take the file's
 * value; labs keep only flags a site may switch. Values are stored in this site's text form. Beyond Ghost,
 * every key not imported is named in `problems` with the reason, and the active theme is activated when the
 * archive brought it (`installedThemes`, db.import-archive.ts) and it passed the theme checks.
 */
export async function importSettings(run: ImportRun, installedThemes: ReadonlySet<string> = new Set()): Promise<void> {
  const settings = run.rows('settings');
  if (settings.length === 0) return;
  const values: Partial<Record<SettingKey, string | null>> = {};
  const skip = (setting: FileRow, reason: string) => run.notImported(`setting "${String(setting.key)}"`, 1, reason, 'Settings');
  for (const setting of settings) {
    let key = String(setting.key);
    key = RENAMED[key] ?? key;
    let value = setting.value;
    if (key === 'members_allow_free_signup') {
      key = 'members_signup_access';
      value = value && value !== 'false' && value !== '0' ? 'all' : 'invite';
    }
    if (key === 'active_theme') {
      if (typeof value === 'string' && installedThemes.has(value)) values.active_theme = value;
      else run.problem('Theme not imported, please upload in Settings - Design', 'Settings', setting);
      continue;
    }
    if (Object.hasOwn(IGNORED, key)) skip(setting, IGNORED[key]!);
    else if (!isSettingKey(key)) skip(setting, 'This site has no such setting (the file is from another Ghost version).');
    else if (SETTINGS[key].group === 'core' || SETTINGS[key].group === 'theme') skip(setting, "The site's own (keys, secrets and internal state).");
    else {
      if (key === 'labs') reportLabs(run, value);
      values[key] = storedValue(key, value);
    }
  }
  if (Object.keys(values).length === 0) return;
  await writeSettings(run.w.db, values, run.w.clock.now());
  run.counts.settings = Object.keys(values).length;
}

/** Labs flags of the file a site may not switch (they are Ghost's own rollout state). */
function reportLabs(run: ImportRun, value: unknown): void {
  const dropped = Object.keys(parsedLabs(value)).filter((flag) => !WRITABLE_LABS_FLAGS.includes(flag));
  if (dropped.length > 0)
    run.notImported(
      `labs flags ${dropped.map((flag) => `"${flag}"`).join(', ')}`,
      dropped.length,
      "Only flags a site may switch are kept; the others are Ghost's own rollout state.",
      'Settings',
    );
}

function parsedLabs(value: unknown): Record<string, unknown> {
  try {
    const flags = (typeof value === 'string' ? JSON.parse(value) : value) as unknown;
    return flags && typeof flags === 'object' && !Array.isArray(flags) ? (flags as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function storedValue(key: SettingKey, value: unknown): string | null {
  if (value === null || value === undefined) return key === 'accent_color' ? '#15171A' : null;
  if (key === 'labs') return labsValue(value);
  if (SETTINGS[key].type === 'boolean') return value === true || value === 1 || value === '1' || value === 'true' ? 'true' : 'false';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The switchable flags of the file, over this site's defaults (unreadable labs keep the defaults). */
function labsValue(value: unknown): string {
  const kept = Object.fromEntries(Object.entries(parsedLabs(value)).filter(([flag]) => WRITABLE_LABS_FLAGS.includes(flag)));
  return JSON.stringify({ ...kept, ...(JSON.parse(SETTINGS.labs.default ?? '{}') as object) });
}
