import type { TagRow } from '../../db/schema.js';
import type { FieldMap } from '../../browse/fields.js';

/** Ghost's `tags` table: every column filter and order may name and a browse reads. */
export const TAG_FIELDS = {
  id: 'text',
  name: 'text',
  slug: 'text',
  description: 'text',
  feature_image: 'text',
  parent_id: 'text',
  visibility: 'text',
  og_image: 'text',
  og_title: 'text',
  og_description: 'text',
  twitter_image: 'text',
  twitter_title: 'text',
  twitter_description: 'text',
  meta_title: 'text',
  meta_description: 'text',
  codeinjection_head: 'text',
  codeinjection_foot: 'text',
  canonical_url: 'text',
  accent_color: 'text',
  created_at: 'date',
  created_by: 'text',
  updated_at: 'date',
  updated_by: 'text',
} as const satisfies FieldMap<TagRow>;
