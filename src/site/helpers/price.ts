import type { Options } from './env.js';

function format(amount: unknown, currency: string, numberFormat: string, currencyFormat: string, locale: string): string {
  const options: Intl.NumberFormatOptions = { style: 'currency', currency, currencyDisplay: currencyFormat as Intl.NumberFormatOptions['currencyDisplay'] };
  if (numberFormat === 'short') options.minimumFractionDigits = 0;
  if (typeof amount === 'number') return new Intl.NumberFormat(locale, options).format(amount);
  return new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'symbol', minimumFractionDigits: 0, maximumFractionDigits: 0 })
    .format(0)
    .replace(/[\d\s.,]/g, '');
}

/** `{{price 500 currency="USD"}}` → `$5`, `{{price tier.monthly_price_obj}}`; a bare number is divided by 100. */
export function price(this: unknown, ...args: unknown[]) {
  const options = args.pop() as Options;
  const hash = (options?.hash ?? {}) as Record<string, string | undefined>;
  const site = (options?.data?.site ?? {}) as { locale?: string };
  const locale = hash.locale ?? site.locale ?? 'en';
  const numberFormat = hash.numberFormat ?? 'short';
  const currencyFormat = hash.currencyFormat ?? 'symbol';
  const input = args[0];
  if (input && typeof input === 'object') {
    const plan = input as { amount?: number; currency?: string };
    return format(plan.amount && plan.amount / 100, hash.currency ?? String(plan.currency), numberFormat, currencyFormat, locale);
  }
  const amount = typeof input === 'number' ? input : undefined;
  if (hash.currency) return format(amount && amount / 100, hash.currency, numberFormat, currencyFormat, locale);
  if (amount === undefined) return '';
  return amount / 100;
}
