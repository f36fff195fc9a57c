import type { BrowseSpec } from '../../browse/browse.js';
import { listColumns, queryFields } from '../../browse/fields.js';
import { attributesOf } from '../../browse/order.js';
import type { FilterSpec } from '../../filter/spec.js';
import { RECOMMENDATION_FIELDS } from './recommendations.fields.js';

const RECOMMENDATIONS_FILTER: FilterSpec = { table: 'recommendations', fields: queryFields(RECOMMENDATION_FIELDS) };

const newestFirst = () => [{ kind: 'column', table: 'recommendations', column: 'created_at', type: 'date', direction: 'desc' }] as const;

/** Recommendations: the same list on both APIs, newest first. */
export const RECOMMENDATIONS_BROWSE: BrowseSpec = {
  table: 'recommendations',
  filter: RECOMMENDATIONS_FILTER,
  order: { table: 'recommendations', attributes: attributesOf('recommendations', RECOMMENDATIONS_FILTER.fields) },
  columns: listColumns(RECOMMENDATION_FIELDS),
  alwaysRead: ['id'],
  api: { admin: { defaultOrder: () => [...newestFirst()] }, content: { defaultOrder: () => [...newestFirst()] } },
};
