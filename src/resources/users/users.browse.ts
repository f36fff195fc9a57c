import type { BrowseSpec } from '../../browse/browse.js';
import { listColumns, queryFields } from '../../browse/fields.js';
import { attributesOf } from '../../browse/order.js';
import type { FilterSpec } from '../../filter/spec.js';
import { USER_FIELDS } from './users.fields.js';
import { authorHasPublishedPost, authorPostCount } from './users.queries.js';

export const USERS_FILTER: FilterSpec = { table: 'users', fields: queryFields(USER_FIELDS) };

const ALL_STATES = 'status:[active,warn-1,warn-2,warn-3,warn-4,inactive,locked]';
const column = (name: string, direction: 'asc' | 'desc', type: 'text' | 'date' = 'text') => ({
  kind: 'column' as const,
  table: 'users',
  column: name,
  type,
  direction,
});

/** Staff users (Admin `users`) and authors (Content `authors`): `core/server/models/user.js`, `author.js`. */
export const USERS_BROWSE: BrowseSpec = {
  table: 'users',
  filter: USERS_FILTER,
  order: { table: 'users', attributes: attributesOf('users', USERS_FILTER.fields), counts: ['count.posts'] },
  columns: listColumns(USER_FIELDS),
  alwaysRead: ['id'],
  computed: { url: ['slug'] },
  counts: {
    'count.posts': (api) => (eb) => authorPostCount(eb, api),
  },
  api: {
    admin: {
      filter: { defaults: ALL_STATES },
      defaultOrder: () => [column('last_seen', 'desc', 'date'), column('name', 'asc'), column('created_at', 'desc', 'date')],
    },
    content: {
      // Private columns cannot be probed through the filter; statuses cannot be narrowed either.
      filter: { enforced: ALL_STATES, reject: (key) => /^(password|email)/i.test(key) },
      defaultOrder: () => [column('name', 'asc')],
      slugListOrder: true,
      scope: authorHasPublishedPost,
    },
  },
};
