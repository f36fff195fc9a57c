import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { toStorageUrl } from '../../content/ghost-url.js';
import { SECRET_MASK, SETTINGS, URL_SETTINGS, WRITABLE_LABS_FLAGS, isSecretSetting, isSettingKey, type SettingKey } from '../../settings/keys.js';
import { invalidateSettings, readAllSettings, readSettings, writeSettings } from '../../settings/settings.js';
import type { SettingValues, SiteFacts } from '../../settings/derived.js';
import type { SettingInput } from './settings.schemas.js';
import { checkSettingsInput, checkStoredValue } from './settings.rules.js';

/** Editable in Ghost, but only as a token Stripe exchanges for the `stripe_connect_*` keys. */
const STRIPE_CONNECT_TOKEN = 'stripe_connect_integration_token';

export const siteFacts = (ctx: Ctx): SiteFacts => ({ siteUrl: ctx.site.url, mailFrom: ctx.mailer.fromAddress });

export async function browseSettings(ctx: Ctx): Promise<SettingValues> {
  return readAllSettings(ctx.db);
}

function labsValue(value: unknown): string {
  let flags: unknown = value;
  if (typeof value === 'string') {
    try {
      flags = JSON.parse(value);
    } catch {
      flags = null;
    }
  }
  if (!flags || typeof flags !== 'object' || Array.isArray(flags)) throw errors.validation('Value in labs should be an object.');
  const writable = Object.entries(flags).filter(([flag]) => WRITABLE_LABS_FLAGS.includes(flag));
  return JSON.stringify(Object.fromEntries(writable));
}

/** The string Ghost's settings model stores for a value sent through the API (undefined: nothing to store). */
function storedForm(key: SettingKey, value: unknown, siteUrl: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (key === 'labs') return labsValue(value);
  if (SETTINGS[key].type === 'boolean' && ['0', '1', 'true', 'false', true, false].includes(value as string)) {
    return String(value === true || value === 'true' || value === '1');
  }
  // Ghost hands the boolean to its database driver, which stores it in the text column as 1 or 0.
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  // Ghost's models store an empty string as null.
  if (text === '') return null;
  if (key === 'icon') return toStorageUrl(text.replace(/\/content\/images\/size\/([^/]+)\//, '/content/images/'), siteUrl);
  return URL_SETTINGS.has(key) ? toStorageUrl(text, siteUrl) : text;
}

/**
 * `PUT /settings/`: Ghost's input checks over every entry, then only editable keys are kept (masked secrets
 * sent back unchanged are ignored), each value is checked as the settings model checks it, and the changed
 * ones are stored in one transaction with `site.changed`. Returns whether any editable key was sent (Ghost
 * then answers `X-Cache-Invalidate: /*`, and fires `site.changed`, even when nothing changed).
 */
export async function editSettings(ctx: Ctx, entries: readonly SettingInput[]): Promise<{ saved: boolean }> {
  checkSettingsInput(entries);
  const editable = entries.filter(
    (entry): entry is { key: SettingKey; value: unknown } =>
      typeof entry.key === 'string' &&
      isSettingKey(entry.key) &&
      'editable' in SETTINGS[entry.key] &&
      !(entry.value === SECRET_MASK && isSecretSetting(entry.key)),
  );
  // Stripe Connect is not built: a token cannot be exchanged for keys, which Ghost reports this way.
  if (entries.some((entry) => entry.key === STRIPE_CONNECT_TOKEN && entry.value)) {
    throw errors.badRequest('The Stripe Connect token could not be parsed.');
  }
  const values = new Map<SettingKey, string | null>();
  for (const { key, value } of editable) {
    const stored = storedForm(key, value, ctx.site.url);
    if (stored === undefined) continue;
    checkStoredValue(key, stored);
    values.set(key, stored);
  }
  if (editable.length === 0) return { saved: false };
  await ctx.write(async (w) => {
    const current = await readSettings(w.db, [...values.keys()]);
    const changed = Object.fromEntries([...values].filter(([key, value]) => current.get(key) !== value));
    if (Object.keys(changed).length > 0) await writeSettings(w.db, changed, w.clock.now());
    w.events.record('site.changed', {});
  });
  // A read between the write and its commit may have cached the old values.
  invalidateSettings();
  return { saved: true };
}
