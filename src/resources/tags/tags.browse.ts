import { sql } from 'kysely';
import type { BrowseSpec } from '../../browse/browse.js';
import { listColumns, queryFields } from '../../browse/fields.js';
import { attributesOf } from '../../browse/order.js';
import type { FilterSpec } from '../../filter/spec.js';
import { TAG_FIELDS } from './tags.fields.js';
import { tagHasPublishedPost } from './tags.queries.js';

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
    // Admin counts every post and page; the Content API published posts only.
    'count.posts': (api) => (eb) => {
      let count = eb.selectFrom('posts').innerJoin('posts_tags', 'posts_tags.post_id', 'posts.id').whereRef('posts_tags.tag_id', '=', 'tags.id');
      if (api === 'content') count = count.where('posts.type', '=', 'post').where('posts.status', '=', 'published');
      return count.select(sql<number>`count(posts.id)`.as('n'));
    },
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
