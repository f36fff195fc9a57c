import type { TierRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';

/**
 * The Admin API tier (Ghost's one tier serializer), in its key order. A free tier has no currency or
 * prices at all; a paid tier's currency is upper-case, whatever the row holds.
 */
export function presentAdminTier(tier: TierRow, benefits: string[]) {
  return {
    id: tier.id,
    name: tier.name,
    description: tier.description,
    slug: tier.slug,
    active: tier.active,
    type: tier.type,
    welcome_page_url: tier.welcome_page_url,
    created_at: isoDate(tier.created_at),
    updated_at: isoDate(tier.updated_at),
    visibility: tier.visibility,
    benefits,
    ...(tier.type === 'paid' ? { currency: tier.currency?.toUpperCase() ?? null, monthly_price: tier.monthly_price, yearly_price: tier.yearly_price } : {}),
    trial_days: tier.trial_days,
  };
}

/**
 * The Content API tier: the same fields, prices and benefits always embedded (as Ghost does), and the
 * currency code lower-case, as the interface document specifies for the content interface.
 */
export function presentContentTier(tier: TierRow, benefits: string[]) {
  return {
    id: tier.id,
    name: tier.name,
    description: tier.description,
    slug: tier.slug,
    active: tier.active,
    type: tier.type,
    welcome_page_url: tier.welcome_page_url,
    created_at: isoDate(tier.created_at),
    updated_at: isoDate(tier.updated_at),
    visibility: tier.visibility,
    benefits,
    ...(tier.type === 'paid' ? { currency: tier.currency?.toLowerCase() ?? null, monthly_price: tier.monthly_price, yearly_price: tier.yearly_price } : {}),
    trial_days: tier.trial_days,
  };
}
