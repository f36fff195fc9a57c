import { sql } from 'kysely';
import type { ApiRules, BrowseSpec } from '../../browse/browse.js';
import { attributesOf, type OrderTerm } from '../../browse/order.js';
import type { BrowseParams } from '../../browse/params.js';
import { listColumns } from '../../browse/fields.js';
import { columnOrder } from '../../browse/spec-of.js';
import { CONTENT_HIDDEN_COLUMNS, POST_FIELDS, POST_META_COLUMNS } from './posts.fields.js';
import { excerptSource } from './posts.content.queries.js';
import { POSTS_FILTER } from './posts.filter.js';

const column = columnOrder('posts', POST_FIELDS);
const desc = (expression: ReturnType<typeof sql>): OrderTerm => ({ kind: 'expression', expression, direction: 'desc' });

/**
 * Admin default (`Post.orderDefaultRaw`): scheduled, then drafts, then the rest; newest first. A filter
 * listing tags or authors (`tag:[a,b]`) puts posts with more tags/authors first (Ghost counts all of them).
 */
function adminDefaultOrder(params: BrowseParams): OrderTerm[] {
  const terms: OrderTerm[] = [
    { kind: 'expression', expression: sql`case when posts.status = 'scheduled' then 1 when posts.status = 'draft' then 2 else 3 end`, direction: 'asc' },
    desc(sql`case when posts.status <> 'draft' then posts.published_at end`),
    column('updated_at', 'desc'),
    column('id', 'desc'),
  ];
  const filter = params.filter ?? '';
  if (/(tags|tag):\s?\[.*\]/.test(filter)) terms.unshift(desc(sql`(select count(*) from posts_tags where posts_tags.post_id = posts.id)`));
  if (/(authors|author):\s?\[.*\]/.test(filter)) terms.unshift(desc(sql`(select count(*) from posts_authors where posts_authors.post_id = posts.id)`));
  return terms;
}

const PRIVATE_AUTHOR_FIELDS = (key: string) => /^authors\.(password|email)/i.test(key);

function adminRules(type: 'post' | 'page'): ApiRules {
  const statuses = type === 'post' ? 'draft,published,scheduled,sent' : 'draft,published,scheduled';
  return {
    // The input serializer ANDs the type, and the endpoint's statuses unless the filter text names `status:`.
    filter: (params) => ({
      wrap: true,
      extra: params.filter && /status:/.test(params.filter) ? `type:${type}` : `type:${type}+status:[${statuses}]`,
      defaults: 'type:post+status:published',
    }),
    defaultOrder: adminDefaultOrder,
  };
}

function contentRules(type: 'post' | 'page'): ApiRules {
  return {
    filter: { wrap: true, extra: `type:${type}`, enforced: 'status:published', defaults: 'type:post', reject: PRIVATE_AUTHOR_FIELDS },
    defaultOrder: () => [type === 'post' ? column('published_at', 'desc') : column('title', 'asc')],
    slugListOrder: true,
    hiddenColumns: CONTENT_HIDDEN_COLUMNS,
    partialColumns: { plaintext: excerptSource },
  };
}

function postsBrowse(type: 'post' | 'page'): BrowseSpec {
  return {
    table: 'posts',
    filter: POSTS_FILTER,
    order: {
      table: 'posts',
      attributes: [...attributesOf('posts', POSTS_FILTER.fields), ...attributesOf('posts_meta', POST_META_COLUMNS)],
    },
    columns: listColumns(POST_FIELDS),
    // Ghost's defaultColumnsToFetch, plus what URLs and Content gating need.
    alwaysRead: ['id', 'uuid', 'slug', 'status', 'type', 'visibility', 'published_at'],
    wideColumns: ['html', 'plaintext', 'mobiledoc', 'lexical'],
    computed: { url: ['slug', 'uuid', 'status'], excerpt: ['custom_excerpt', 'plaintext'], reading_time: ['html', 'reading_time', 'feature_image'] },
    api: { admin: adminRules(type), content: contentRules(type) },
  };
}

export const POSTS_BROWSE = postsBrowse('post');
export const PAGES_BROWSE = postsBrowse('page');
export const POST_TYPES_BROWSE = { post: POSTS_BROWSE, page: PAGES_BROWSE } as const;
