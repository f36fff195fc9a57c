import type { TierRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';

/** Ghost's `products` table (tiers): the columns a tiers filter may name. */
export const TIER_FIELDS = {
  id: 'text',
  name: 'text',
  slug: 'text',
  active: 'boolean',
  welcome_page_url: 'text',
  visibility: 'text',
  trial_days: 'number',
  description: 'text',
  type: 'text',
  currency: 'text',
  monthly_price: 'number',
  yearly_price: 'number',
  created_at: 'date',
  updated_at: 'date',
  monthly_price_id: { type: 'text', query: false },
  yearly_price_id: { type: 'text', query: false },
} as const satisfies FieldMap<TierRow>;
