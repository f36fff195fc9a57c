import type { ActionRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';

/** Ghost's `actions` table: every column filter and order may name and a browse reads. */
export const ACTION_FIELDS = {
  id: 'text',
  resource_id: 'text',
  resource_type: 'text',
  actor_id: 'text',
  actor_type: 'text',
  event: 'text',
  context: 'text',
  created_at: 'date',
} as const satisfies FieldMap<ActionRow>;
