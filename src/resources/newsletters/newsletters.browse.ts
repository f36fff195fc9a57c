import { browseSpecOf, columnOrder } from '../../browse/spec-of.js';
import { NEWSLETTER_FIELDS } from './newsletters.fields.js';
import { NEWSLETTER_COUNTS } from './newsletters.queries.js';

const column = columnOrder('newsletters', NEWSLETTER_FIELDS);
const byOrder = () => [column('sort_order', 'asc'), column('created_at', 'asc'), column('id', 'asc')];

/** Newsletters (`core/server/models/newsletter.js`): `sort_order, created_at, id` ascending; the Content API sees active ones only. */
export const NEWSLETTERS_BROWSE = browseSpecOf('newsletters', NEWSLETTER_FIELDS, {
  counts: {
    'count.posts': () => (eb) => NEWSLETTER_COUNTS['count.posts'](eb),
    'count.members': () => (eb) => NEWSLETTER_COUNTS['count.members'](eb),
    'count.active_members': () => (eb) => NEWSLETTER_COUNTS['count.active_members'](eb),
  },
  api: {
    admin: { defaultOrder: byOrder },
    content: { defaultOrder: byOrder, filter: { enforced: 'status:active' } },
  },
});
