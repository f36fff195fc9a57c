import type { LabelRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';

/** Ghost's `labels` table: every column filter and order may name and a browse reads. */
export const LABEL_FIELDS = {
  id: 'text',
  name: 'text',
  slug: 'text',
  created_at: 'date',
  created_by: 'text',
  updated_at: 'date',
  updated_by: 'text',
} as const satisfies FieldMap<LabelRow>;
