import { browseSpecOf, columnOrder } from '../../browse/spec-of.js';
import { USER_FIELDS } from './users.fields.js';
import { authorHasPublishedPost, authorPostCount } from './users.queries.js';

const ALL_STATES = 'status:[active,warn-1,warn-2,warn-3,warn-4,inactive,locked]';
const column = columnOrder('users', USER_FIELDS);

/** Staff users (Admin `users`) and authors (Content `authors`): `core/server/models/user.js`, `author.js`. */
export const USERS_BROWSE = browseSpecOf('users', USER_FIELDS, {
  computed: { url: ['slug'] },
  counts: {
    'count.posts': (api) => (eb) => authorPostCount(eb, api),
  },
  api: {
    admin: {
      filter: { defaults: ALL_STATES },
      defaultOrder: () => [column('last_seen', 'desc'), column('name', 'asc'), column('created_at', 'desc')],
    },
    content: {
      // Private columns cannot be probed through the filter; statuses cannot be narrowed either.
      filter: { enforced: ALL_STATES, reject: (key) => /^(password|email)/i.test(key) },
      defaultOrder: () => [column('name', 'asc')],
      slugListOrder: true,
      scope: authorHasPublishedPost,
    },
  },
});
