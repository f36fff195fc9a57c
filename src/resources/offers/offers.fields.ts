import type { OfferRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';

/** Ghost's `offers` table. Ghost's offers filter reads only `status` (the `active` column); see offers.browse.ts. */
export const OFFER_FIELDS = {
  id: 'text',
  active: 'boolean',
  name: 'text',
  code: 'text',
  product_id: 'text',
  stripe_coupon_id: { type: 'text', query: false },
  interval: 'text',
  currency: 'text',
  discount_type: 'text',
  discount_amount: 'number',
  duration: 'text',
  duration_in_months: 'number',
  portal_title: 'text',
  portal_description: 'text',
  created_at: 'date',
  updated_at: 'date',
} as const satisfies FieldMap<OfferRow>;
