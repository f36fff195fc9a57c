import { queryFields } from '../../browse/fields.js';
import type { FilterRules } from '../../filter/filter.js';
import type { FilterSpec } from '../../filter/spec.js';
import { TIER_FIELDS } from './tiers.fields.js';

/**
 * Tiers filter on their own columns plus the names Ghost's in-memory tier objects carry (`trialDays`,
 * `monthlyPrice`, …), which its filter reads: both spellings work here.
 */
export const TIERS_FILTER: FilterSpec = {
  table: 'products',
  fields: queryFields(TIER_FIELDS),
  expansions: [
    { key: 'welcomePageURL', replacement: 'welcome_page_url' },
    { key: 'trialDays', replacement: 'trial_days' },
    { key: 'monthlyPrice', replacement: 'monthly_price' },
    { key: 'yearlyPrice', replacement: 'yearly_price' },
    { key: 'createdAt', replacement: 'created_at' },
    { key: 'updatedAt', replacement: 'updated_at' },
  ],
};

/** Content API: archived tiers do not exist there (`active:true` is always ANDed). */
export const CONTENT_TIER_RULES: FilterRules = { extra: 'active:true' };
