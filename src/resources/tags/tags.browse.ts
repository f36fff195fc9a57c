import { browseSpecOf, columnOrder } from '../../browse/spec-of.js';
import { TAG_FIELDS } from './tags.fields.js';
import { tagHasPublishedPost, tagPostCount } from './tags.queries.js';

const column = columnOrder('tags', TAG_FIELDS);

/** Tags (`core/server/models/tag.js`, `tag-public.js`, input serializer tags.js). */
export const TAGS_BROWSE = browseSpecOf('tags', TAG_FIELDS, {
  computed: { url: ['slug', 'visibility'] },
  counts: {
    'count.posts': (api) => (eb) => tagPostCount(eb, api),
  },
  api: {
    // Admin: every tag, public and internal, with or without posts; no default order.
    admin: { defaultOrder: () => [] },
    // Content: tags of at least one published post or page; `name asc` unless slugs are listed.
    content: {
      defaultOrder: () => [column('name', 'asc')],
      slugListOrder: true,
      scope: tagHasPublishedPost,
    },
  },
});
