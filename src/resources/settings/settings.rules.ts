import { isEmail } from '../../db/string-checks.js';
import { errors } from '../../errors.js';
import { SETTINGS, type SettingCheck, type SettingKey } from '../../settings/keys.js';
import type { SettingInput } from './settings.schemas.js';

/*
 * Ghost's checks of a settings edit, in the order Ghost runs them: the input validator looks at every entry
 * as sent (`checkSettingsInput`); once the entries are reduced to editable keys with stored values, the
 * settings model checks each value (`checkStoredValue`). The first failure is the answer.
 */

/** Settings whose value must be an array (or a JSON string holding one). */
const ARRAY_INPUTS = new Set(['notifications', 'navigation', 'secondary_navigation', 'announcement_visibility']);
const ANNOUNCEMENT_VISIBILITY = ['visitors', 'free_members', 'paid_members'];
const ANNOUNCEMENT_BACKGROUNDS = ['accent', 'dark', 'light'];

function arrayOf(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Ghost's settings input validator (422 ValidationError), over every entry, editable or not. */
export function checkSettingsInput(entries: readonly SettingInput[]): void {
  for (const { key, value } of entries) {
    if (typeof key !== 'string') continue;
    if (ARRAY_INPUTS.has(key) && !arrayOf(value)) {
      throw errors.validation({ message: `Value in ${key} should be an array.`, property: 'value' });
    }
    if (key === 'members_support_address' && (typeof value !== 'string' || (value !== 'noreply' && !isEmail(value)))) {
      throw errors.validation({ message: 'Please enter a valid email address.', property: key });
    }
    if (key === 'announcement_visibility' && arrayOf(value)!.some((item) => !ANNOUNCEMENT_VISIBILITY.includes(item as string))) {
      throw errors.validation({ message: 'Please enter a valid announcement visibility value', property: key });
    }
    if (key === 'announcement_background' && !ANNOUNCEMENT_BACKGROUNDS.includes(value as string)) {
      throw errors.validation({ message: 'Please enter a valid announcement background value', property: key });
    }
  }
}

/** A time zone name as moment-timezone knows them (IANA names and their aliases, any letter case). */
function isTimezone(value: string): boolean {
  if (!value) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function failure(key: SettingKey, check: SettingCheck, value: string): string | null {
  if ('maxLength' in check) {
    return value.length > check.maxLength ? `Value in [settings.${key}] exceeds maximum length of ${check.maxLength} characters.` : null;
  }
  if ('notEmpty' in check) return value === '' ? `Validation (isEmpty) failed for ${key}` : null;
  if ('oneOf' in check) return check.oneOf.includes(value) ? null : `Validation (isIn) failed for ${key}`;
  return isTimezone(value) ? null : `Validation (isTimezone) failed for ${key}`;
}

const STRIPE_SECRET = /(?:sk|rk)_(?:test|live)_[\da-zA-Z]{1,247}$/;
const STRIPE_PUBLISHABLE = /pk_(?:test|live)_[\da-zA-Z]{1,247}$/;

/**
 * The settings model's checks of one value about to be stored: the schema validations of its key (every
 * failing one, one per line, as Ghost joins them), then the Stripe key formats.
 */
export function checkStoredValue(key: SettingKey, value: string | null): void {
  const spec: { checks?: readonly SettingCheck[] } = SETTINGS[key];
  const failures = (spec.checks ?? []).map((check) => failure(key, check, value ?? '')).filter((message) => message !== null);
  if (failures.length) throw errors.validation(failures.map((message) => `ValidationError: ${message}`).join('\n'));
  if (value === null) return;
  if (key === 'stripe_secret_key' && !STRIPE_SECRET.test(value)) {
    throw errors.validation(`stripe_secret_key did not match ${String(STRIPE_SECRET)}`);
  }
  if (key === 'stripe_publishable_key' && !STRIPE_PUBLISHABLE.test(value)) {
    throw errors.validation(`stripe_publishable_key did not match ${String(STRIPE_PUBLISHABLE)}`);
  }
}
