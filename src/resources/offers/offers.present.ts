import { isoDate } from '../../content/dates.js';
import type { OfferWithTier } from './offers.queries.js';

const typeOf = (offer: OfferWithTier) => (offer.discount_type === 'amount' ? 'fixed' : offer.discount_type);

/** Fields both audiences see, in Ghost's order (`OfferMapper.toDTO`). */
function common(offer: OfferWithTier) {
  const type = typeOf(offer);
  return {
    id: offer.id,
    name: offer.name,
    display_title: offer.portal_title ?? '',
    display_description: offer.portal_description ?? '',
    type,
    cadence: offer.interval,
    amount: offer.discount_amount,
    duration: offer.duration,
    duration_in_months: offer.duration === 'repeating' ? offer.duration_in_months : null,
    currency_restriction: type === 'fixed',
    currency: type === 'fixed' ? offer.currency : null,
    status: offer.active ? 'active' : 'archived',
  };
}

const tierOf = (offer: OfferWithTier) => ({ id: offer.product_id, name: offer.tier_name });

/** The Admin API offer. Redemptions need Stripe checkouts, which never happen here: the count is 0. */
export function presentAdminOffer(offer: OfferWithTier) {
  const { id, name, ...rest } = common(offer);
  return {
    id,
    name,
    code: offer.code,
    ...rest,
    redemption_count: 0,
    tier: tierOf(offer),
    created_at: isoDate(offer.created_at),
    last_redeemed: null,
  };
}

/** The Content API offer (`GET /offers/:id/`): no code, counts or dates. */
export function presentContentOffer(offer: OfferWithTier) {
  return { ...common(offer), tier: tierOf(offer) };
}
