import type { RecommendationRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';

/** A recommendation on either API (Ghost's serializer: every field, null when unknown). */
export function presentRecommendation(row: Partial<RecommendationRow>, counts?: boolean) {
  return {
    id: row.id ?? null,
    title: row.title ?? null,
    description: row.description ?? null,
    excerpt: row.excerpt ?? null,
    featured_image: row.featured_image ?? null,
    favicon: row.favicon ?? null,
    url: row.url ?? null,
    one_click_subscribe: row.one_click_subscribe ?? null,
    created_at: isoDate(row.created_at),
    updated_at: isoDate(row.updated_at),
    // Clicks and subscriptions are tracked from members' visits, which arrive with the members work.
    ...(counts ? { count: { clicks: 0, subscribers: 0 } } : {}),
  };
}
