import type { BrowseSpec } from '../../browse/browse.js';
import { listColumns, queryFields } from '../../browse/fields.js';
import { attributesOf } from '../../browse/order.js';
import type { FilterSpec } from '../../filter/spec.js';
import { TAG_FIELDS } from './tags.fields.js';
import { tagHasPublishedPost, tagPostCount } from './tags.queries.js';

export const TAGS_FILTER: FilterSpec = { table: 'tags', fields: queryFields(TAG_FIELDS) };

/** Tags (`core/server/models/tag.js`, `tag-public.js`, input serializer tags.js). */
export const TAGS_BROWSE: BrowseSpec = {
  table: 'tags',
  filter: TAGS_FILTER,
  order: { table: 'tags', attributes: attributesOf('tags', TAGS_FILTER.fields), counts: ['count.posts'] },
  columns: listColumns(TAG_FIELDS),
  alwaysRead: ['id'],
  computed: { url: ['slug', 'visibility'] },
  counts: {
    'count.posts': (api) => (eb) => tagPostCount(eb, api),
  },
  api: {
    // Admin: every tag, public and internal, with or without posts; no default order.
    admin: { defaultOrder: () => [] },
    // Content: tags of at least one published post or page; `name asc` unless slugs are listed.
    content: {
      defaultOrder: () => [{ kind: 'column', table: 'tags', column: 'name', type: 'text', direction: 'asc' }],
      slugListOrder: true,
      scope: tagHasPublishedPost,
    },
  },
};
