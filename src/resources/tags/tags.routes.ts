import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../ctx.js';
import type { TagRow } from '../../db/schema.js';
import type { Api } from '../../browse/browse.js';
import { parseInclude } from '../../browse/include.js';
import { browseRoute } from '../../http/browse-route.js';
import { readRoutes } from '../../http/read-routes.js';
import { writeRoutes } from '../../http/write-routes.js';
import { tagUrl } from '../../content/urls.js';
import { TAGS_BROWSE } from './tags.browse.js';
import { findPublicTag, findTag, postCountsOfTags, tagsWithPublishedPosts } from './tags.queries.js';
import { presentAdminTag, presentContentTag } from './tags.present.js';
import { addTag, deleteTag, editTag } from './tags.service.js';
import { TAG_ADD, TAG_EDIT, TAG_INCLUDES } from './tags.schemas.js';
type Query = Record<string, unknown>;

/** Presents tags with their `url` (and `count.posts` when included), in as few queries as the page needs. */
async function presentTags({ db, site }: Ctx, rows: TagRow[], include: readonly string[], api: Api) {
  const ids = rows.map((row) => row.id);
  const [published, counts] = await Promise.all([
    // Content API tags all have published posts: that is how they were selected.
    api === 'content' ? Promise.resolve(new Set(ids)) : tagsWithPublishedPosts(db, ids),
    include.includes('count.posts') ? postCountsOfTags(db, ids, api) : Promise.resolve(null),
  ]);
  const present = api === 'admin' ? presentAdminTag : presentContentTag;
  return rows.map((row) =>
    present(row, site.url, {
      url: tagUrl(site.url, row.slug, row.visibility === 'public' && published.has(row.id)),
      ...(counts ? { count: { posts: counts.get(row.id) ?? 0 } } : {}),
    }),
  );
}

/** Browse and the id/slug reads, for either API (the Content API sees only tags with a published post). */
function tagReadRoutes(app: FastifyInstance, api: Api) {
  const permission = (action: 'browse' | 'read') => (api === 'admin' ? { permission: `tag.${action}` as const } : {});
  browseRoute<TagRow>(app, {
    docName: 'tags',
    api,
    spec: TAGS_BROWSE,
    ...permission('browse'),
    params: { include: TAG_INCLUDES },
    present: (ctx, rows, params) => presentTags(ctx, rows, params.include, api),
    streamAll: true,
  });
  readRoutes(app, {
    docName: 'tags',
    keys: ['id', 'slug'],
    ...permission('read'),
    include: TAG_INCLUDES,
    notFound: 'Tag not found.',
    fieldsIgnoredWithInclude: true,
    read: async (ctx, key, { include }) => {
      const row = api === 'admin' ? await findTag(ctx.db, key) : await findPublicTag(ctx.db, key);
      return row && (await presentTags(ctx, [row], include, api))[0];
    },
  });
}

export function tagsAdminRoutes(app: FastifyInstance) {
  tagReadRoutes(app, 'admin');
  const include = (query: Query) => parseInclude(query.include, TAG_INCLUDES);

  writeRoutes(app, {
    docName: 'tags',
    add: {
      body: TAG_ADD,
      permission: 'tag.add',
      options: include,
      run: addTag,
      present: (ctx, row, included) => presentTags(ctx, [row], included, 'admin'),
    },
    edit: {
      body: TAG_EDIT,
      permission: 'tag.edit',
      options: include,
      run: async (ctx, id, input) => (await editTag(ctx, id, input)).tag,
      present: (ctx, tag, included) => presentTags(ctx, [tag], included, 'admin'),
    },
    destroy: { permission: 'tag.destroy', run: deleteTag },
  });
}

export function tagsContentRoutes(app: FastifyInstance) {
  tagReadRoutes(app, 'content');
}
