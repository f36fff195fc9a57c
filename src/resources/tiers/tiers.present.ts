import type { TierRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';

/** Ghost's one tier serializer, in its key order. A free tier has no currency or prices at all. */
function presentTier(tier: TierRow, benefits: string[], currency: string | null) {
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
    ...(tier.type === 'paid' ? { currency, monthly_price: tier.monthly_price, yearly_price: tier.yearly_price } : {}),
    trial_days: tier.trial_days,
  };
}

/** The Admin API tier: a paid tier's currency is upper-case, whatever the row holds. */
export const presentAdminTier = (tier: TierRow, benefits: string[]) => presentTier(tier, benefits, tier.currency?.toUpperCase() ?? null);

/**
 * The Content API tier: prices and benefits always embedded (as Ghost does), and the currency code
 * lower-case, as the interface document specifies for the content interface.
 */
export const presentContentTier = (tier: TierRow, benefits: string[]) => presentTier(tier, benefits, tier.currency?.toLowerCase() ?? null);

/**
 * A tier as Ghost's relations load it inside a post or a member: the `products` row in its column order,
 * without benefits. The caller says how the currency shows (Ghost differs by where the tier came from).
 */
export function presentTierRelation(tier: TierRow, currency: string | null) {
  return {
    id: tier.id,
    name: tier.name,
    slug: tier.slug,
    active: tier.active,
    welcome_page_url: tier.welcome_page_url,
    visibility: tier.visibility,
    trial_days: tier.trial_days,
    description: tier.description,
    type: tier.type,
    currency,
    monthly_price: tier.monthly_price,
    yearly_price: tier.yearly_price,
    created_at: isoDate(tier.created_at),
    updated_at: isoDate(tier.updated_at),
    monthly_price_id: tier.monthly_price_id,
    yearly_price_id: tier.yearly_price_id,
  };
}
