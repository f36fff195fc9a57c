import { slugify } from '../../content/slugs.js';
import { errors } from '../../errors.js';

/*
 * Ghost's offer value objects (`services/offers/domain/models/*`): each failure is a ValidationError
 * answered with 400 and its own type (`InvalidOfferName`, …), Ghost's message as context.
 */

type OfferErrorType =
  | 'InvalidOfferName'
  | 'InvalidOfferTitle'
  | 'InvalidOfferDescription'
  | 'InvalidOfferCode'
  | 'InvalidOfferType'
  | 'InvalidOfferAmount'
  | 'InvalidOfferCurrency'
  | 'InvalidOfferCadence'
  | 'InvalidOfferDuration'
  | 'InvalidOfferStatus'
  | 'InvalidOfferTierName';

export const offerError = (type: OfferErrorType, message: string) => errors.validation({ message, type, status: 400 });

export function offerName(value: unknown): string {
  if (!value || typeof value !== 'string') throw offerError('InvalidOfferName', 'Offer `name` must be a string.');
  if (value.length > 40) throw offerError('InvalidOfferName', 'Offer `name` can be a maximum of 40 characters.');
  return value.trim();
}

export function offerCode(value: unknown): string {
  if (!value || typeof value !== 'string') throw offerError('InvalidOfferCode', 'Offer `code` must be a string.');
  const code = slugify(value);
  if (code.length > 191) throw offerError('InvalidOfferCode', 'Offer `code` can be a maximum of 191 characters.');
  return code;
}

function displayText(value: unknown, field: 'display_title' | 'display_description'): string {
  const type = field === 'display_title' ? 'InvalidOfferTitle' : 'InvalidOfferDescription';
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') throw offerError(type, `Offer \`${field}\` must be a string.`);
  if (value.length > 191) throw offerError(type, `Offer \`${field}\` can be a maximum of 191 characters.`);
  return value.trim();
}
export const offerTitle = (value: unknown) => displayText(value, 'display_title');
export const offerDescription = (value: unknown) => displayText(value, 'display_description');

export type OfferType = 'percent' | 'fixed' | 'trial';
export function offerType(value: unknown): OfferType {
  if (!value || typeof value !== 'string') throw offerError('InvalidOfferType', 'Offer `type` must be a string.');
  if (value !== 'percent' && value !== 'fixed' && value !== 'trial')
    throw offerError('InvalidOfferType', 'Offer `type` must be one of "percent", "fixed" or "trial".');
  return value;
}

export function offerCadence(value: unknown): 'month' | 'year' {
  if (!value || typeof value !== 'string') throw offerError('InvalidOfferCadence', 'Offer `cadence` must be a string.');
  if (value !== 'month' && value !== 'year') throw offerError('InvalidOfferCadence', 'Offer `cadence` must be one of "month" or "year".');
  return value;
}

export type OfferDuration = { duration: 'once' | 'repeating' | 'forever' | 'trial'; months: number | null };
export function offerDuration(value: unknown, months: unknown): OfferDuration {
  if (!value || typeof value !== 'string') throw offerError('InvalidOfferDuration', 'Offer `duration` must be a string.');
  if (value !== 'once' && value !== 'repeating' && value !== 'forever' && value !== 'trial') {
    throw offerError('InvalidOfferDuration', 'Offer `duration` must be one of "once", "repeating", "forever" or "trial.');
  }
  if (value !== 'repeating') return { duration: value, months: null };
  if (typeof months !== 'number') throw offerError('InvalidOfferDuration', 'Offer `duration` must have include `duration_in_months` when "repeating".');
  if (!Number.isInteger(months) || months < 1) throw offerError('InvalidOfferDuration', 'Offer `duration_in_months` must be an integer greater than 0.');
  return { duration: value, months };
}

export function offerStatus(value: unknown): 'active' | 'archived' {
  if (typeof value !== 'string') throw offerError('InvalidOfferStatus', 'Offer `status` must be a string.');
  if (value !== 'active' && value !== 'archived') throw offerError('InvalidOfferStatus', 'Offer `status` must be either "active" or "archived".');
  return value;
}

export function offerAmount(value: unknown, type: OfferType): number {
  if (type === 'percent') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 100) {
      throw offerError('InvalidOfferAmount', 'Offer `amount` must be an integer between 0 and 100.');
    }
    return value;
  }
  if (typeof value !== 'number') throw offerError('InvalidOfferAmount', 'Offer `amount` must be an integer greater than 0.');
  if (!Number.isInteger(value) || value < 0) throw offerError('InvalidOfferAmount', 'Offer `amount` must be a integer greater than 0.');
  return value;
}

export function offerCurrency(value: unknown): string {
  if (typeof value !== 'string') throw offerError('InvalidOfferCurrency', 'Offer `currency` must be a string.');
  if (!/^[A-Z]{3}$/i.test(value)) throw offerError('InvalidOfferCurrency', 'Offer `currency` must be an ISO currency code.');
  return value.toUpperCase();
}
