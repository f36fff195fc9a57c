import type { BrowseSpec } from '../../browse/browse.js';
import { listColumns, queryFields } from '../../browse/fields.js';
import { attributesOf } from '../../browse/order.js';
import type { FilterSpec } from '../../filter/spec.js';
import { NEWSLETTER_FIELDS } from './newsletters.fields.js';
import { NEWSLETTER_COUNTS } from './newsletters.queries.js';

export const NEWSLETTERS_FILTER: FilterSpec = { table: 'newsletters', fields: queryFields(NEWSLETTER_FIELDS) };

const byOrder = () =>
  (['sort_order', 'created_at', 'id'] as const).map((column) => ({
    kind: 'column' as const,
    table: 'newsletters',
    column,
    type: NEWSLETTER_FIELDS[column],
    direction: 'asc' as const,
  }));

/** Newsletters (`core/server/models/newsletter.js`): `sort_order, created_at, id` ascending; the Content API sees active ones only. */
export const NEWSLETTERS_BROWSE: BrowseSpec = {
  table: 'newsletters',
  filter: NEWSLETTERS_FILTER,
  order: {
    table: 'newsletters',
    attributes: attributesOf('newsletters', NEWSLETTERS_FILTER.fields),
    counts: ['count.posts', 'count.members', 'count.active_members'],
  },
  columns: listColumns(NEWSLETTER_FIELDS),
  alwaysRead: ['id'],
  counts: {
    'count.posts': () => (eb) => NEWSLETTER_COUNTS['count.posts'](eb),
    'count.members': () => (eb) => NEWSLETTER_COUNTS['count.members'](eb),
    'count.active_members': () => (eb) => NEWSLETTER_COUNTS['count.active_members'](eb),
  },
  api: {
    admin: { defaultOrder: byOrder },
    content: { defaultOrder: byOrder, filter: { enforced: 'status:active' } },
  },
};
