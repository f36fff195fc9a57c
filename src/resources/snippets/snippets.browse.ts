import type { BrowseSpec } from '../../browse/browse.js';
import { listColumns, queryFields } from '../../browse/fields.js';
import { attributesOf } from '../../browse/order.js';
import type { FilterSpec } from '../../filter/spec.js';
import { SNIPPET_FIELDS } from './snippets.fields.js';

const SNIPPETS_FILTER: FilterSpec = { table: 'snippets', fields: queryFields(SNIPPET_FIELDS) };

/** Snippets (`core/server/models/snippet.js`): Admin API only, no default order. */
export const SNIPPETS_BROWSE: BrowseSpec = {
  table: 'snippets',
  filter: SNIPPETS_FILTER,
  order: { table: 'snippets', attributes: attributesOf('snippets', SNIPPETS_FILTER.fields) },
  columns: listColumns(SNIPPET_FIELDS),
  alwaysRead: ['id'],
  api: { admin: { defaultOrder: () => [] } },
};
