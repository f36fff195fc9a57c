import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../ctx.js';
import type { UserRow } from '../../db/schema.js';
import { browseRoute } from '../../http/browse-route.js';
import { readRoutes } from '../../http/read-routes.js';
import { authorUrl } from '../../content/urls.js';
import { USERS_BROWSE } from '../users/users.browse.js';
import { postCountsOfAuthors } from '../users/users.queries.js';
import { findPublicAuthor } from './authors.queries.js';
import { presentContentAuthor } from './authors.present.js';

const AUTHOR_INCLUDES = ['count.posts'];

async function presentAuthors({ db, site }: Ctx, rows: UserRow[], include: readonly string[]) {
  const counts = include.includes('count.posts')
    ? await postCountsOfAuthors(
        db,
        rows.map((row) => row.id),
        'content',
      )
    : null;
  // Every author listed here has a published post, so every url is routable.
  return rows.map((row) =>
    presentContentAuthor(row, {
      url: authorUrl(site.url, row.slug, true),
      ...(counts ? { count: { posts: counts.get(row.id) ?? 0 } } : {}),
    }),
  );
}

/** Content API authors: staff with at least one published post or page, by name. */
export function authorsContentRoutes(app: FastifyInstance) {
  browseRoute<UserRow>(app, {
    docName: 'authors',
    api: 'content',
    spec: USERS_BROWSE,
    params: { include: AUTHOR_INCLUDES },
    present: (ctx, rows, params) => presentAuthors(ctx, rows, params.include),
    streamAll: true,
  });
  readRoutes(app, {
    docName: 'authors',
    keys: ['id', 'slug'],
    include: AUTHOR_INCLUDES,
    notFound: 'Author not found.',
    read: async (ctx, key, { include }) => {
      const row = await findPublicAuthor(ctx.db, key);
      return row && (await presentAuthors(ctx, [row], include))[0];
    },
  });
}
