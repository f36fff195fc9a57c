import type { RedirectRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';
import { queryFields } from '../../browse/fields.js';
import type { FilterSpec } from '../../filter/spec.js';

/** Ghost's `redirects` table, as `GET /links/?filter=` may name it (the admin app asks for `post_id:'<id>'`). */
export const REDIRECT_FIELDS = {
  id: 'text',
  from: 'text',
  to: 'text',
  post_id: 'text',
  created_at: 'date',
  updated_at: 'date',
} as const satisfies FieldMap<RedirectRow>;

export const REDIRECTS_FILTER: FilterSpec = { table: 'redirects', fields: queryFields(REDIRECT_FIELDS) };
