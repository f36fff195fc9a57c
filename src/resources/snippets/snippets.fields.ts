import type { SnippetRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';

/** Ghost's `snippets` table: every column filter and order may name and a browse reads. */
export const SNIPPET_FIELDS = {
  id: 'text',
  name: 'text',
  mobiledoc: 'text',
  lexical: 'text',
  created_at: 'date',
  created_by: 'text',
  updated_at: 'date',
  updated_by: 'text',
} as const satisfies FieldMap<SnippetRow>;
