import { errors } from '../../errors.js';

/*
 * Ghost's tier domain rules (`services/tiers/Tier.js`), run after the schema: each failure is a 422
 * ValidationError with Ghost's message as context.
 */

const invalid = (message: string) => errors.validation(message);
const MAX_PRICE = 9_999_999_999;

export function tierName(value: unknown): string {
  if (typeof value !== 'string' || value.length > 191) throw invalid('Tier name must be a string with a maximum of 191 characters');
  return value.trim();
}

export function tierDescription(value: unknown): string | null {
  if (!value) return null;
  if (typeof value !== 'string' || value.length > 191) throw invalid('Tier description must be a string with a maximum of 191 characters');
  return value;
}

export function tierWelcomePageUrl(value: unknown): string | null {
  if (!value) return null;
  if (typeof value !== 'string') throw invalid('Tier Welcome Page URL must be a string');
  return value;
}

export function tierTrialDays(value: unknown, type: 'free' | 'paid'): number {
  if (type === 'free') {
    if (value) throw invalid('Free Tiers cannot have a trial');
    return 0;
  }
  if (!value) return 0;
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw invalid('Tier trials must be an integer greater than 0');
  return value as number;
}

/** A paid tier's currency, upper-cased as Ghost stores it from the API. */
export function tierCurrency(value: unknown): string {
  if (typeof value !== 'string' || value.length !== 3) throw invalid('Tier currency must be a 3 letter ISO currency code');
  return value.toUpperCase();
}

/** A paid tier's price in minor units; missing or 0 is the default (500 a month, 5000 a year). */
export function tierPrice(value: unknown, fallback: number): number {
  if (!value) return fallback;
  if (!Number.isSafeInteger(value)) throw invalid('Tier prices must be an integer.');
  if ((value as number) < 0) throw invalid('Tier prices must not be negative');
  if ((value as number) > MAX_PRICE) throw invalid('Tier prices may not exceed 999999.99');
  return value as number;
}

/** Benefit names: trimmed, blank ones dropped, the first of names equal without case kept. */
export function tierBenefits(value: unknown): string[] {
  if (!value) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw invalid('Tier benefits must be a list of strings');
  const kept: string[] = [];
  for (const raw of value as string[]) {
    const name = raw.trim();
    if (name && !kept.some((other) => other.toLowerCase() === name.toLowerCase())) kept.push(name);
  }
  return kept;
}
