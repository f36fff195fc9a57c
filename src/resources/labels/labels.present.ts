import type { LabelRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';

/** The Admin API label (also embedded in members), in Ghost's key order. */
export function presentLabel(label: LabelRow, count?: { members: number }) {
  return {
    id: label.id,
    name: label.name,
    slug: label.slug,
    created_at: isoDate(label.created_at),
    updated_at: isoDate(label.updated_at),
    ...(count ? { count } : {}),
  };
}
