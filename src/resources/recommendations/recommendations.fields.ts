import type { RecommendationRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';

/** The `recommendations` table: every column filter and order may name and a browse reads. */
export const RECOMMENDATION_FIELDS = {
  id: 'text',
  url: 'text',
  title: 'text',
  excerpt: 'text',
  featured_image: 'text',
  favicon: 'text',
  description: 'text',
  one_click_subscribe: 'boolean',
  created_at: 'date',
  updated_at: 'date',
} as const satisfies FieldMap<RecommendationRow>;
