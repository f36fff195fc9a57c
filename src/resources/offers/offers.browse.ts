import { queryFields } from '../../browse/fields.js';
import type { FilterRules } from '../../filter/filter.js';
import type { FilterSpec } from '../../filter/spec.js';
import { OFFER_FIELDS } from './offers.fields.js';

export const OFFERS_FILTER: FilterSpec = { table: 'offers', fields: queryFields(OFFER_FIELDS) };

const STATUS: Record<string, boolean> = { active: true, archived: false };

/** `active`/`archived` (also inside `$ne`, `$in`, `$nin`) as the `active` column's boolean. */
function statusValue(value: unknown): unknown {
  if (typeof value === 'string') return STATUS[value] ?? value;
  if (Array.isArray(value)) return value.map(statusValue);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([op, v]) => [op, statusValue(v)]));
  return value;
}

/**
 * Ghost's offers repository keeps only `status` statements of a filter (as the `active` column) and drops
 * every other one silently.
 */
export const OFFERS_FILTER_RULES: FilterRules = {
  rewrite: (value, key) => (key === 'status' ? { active: statusValue(value) } : undefined),
};
