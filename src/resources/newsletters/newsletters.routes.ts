import type { FastifyInstance } from 'fastify';
import type { NewsletterRow } from '../../db/schema.js';
import { parseInclude } from '../../browse/include.js';
import { browseRoute } from '../../http/browse-route.js';
import { viewRoutes } from '../../http/view-routes.js';
import { NEWSLETTERS_BROWSE } from './newsletters.browse.js';
import { findNewsletter } from './newsletters.queries.js';
import { presentNewsletters } from './newsletters.views.js';
import { writeRoutes } from '../../http/write-routes.js';
import { presentContentNewsletter } from './newsletters.present.js';
import { addNewsletter, editNewsletter } from './newsletters.service.js';
import { NEWSLETTER_ADD, NEWSLETTER_EDIT, NEWSLETTER_INCLUDES } from './newsletters.schemas.js';

type Query = Record<string, unknown>;

/** Newsletters: writes purge the site cache (newsletters show in Portal); Content API lists active ones. */
export function newslettersAdminRoutes(app: FastifyInstance) {
  const include = (query: Query) => parseInclude(query.include, NEWSLETTER_INCLUDES);

  viewRoutes(app, {
    docName: 'newsletters',
    spec: NEWSLETTERS_BROWSE,
    object: 'newsletter',
    include: NEWSLETTER_INCLUDES,
    keys: ['id'],
    notFound: 'Newsletter not found.',
    find: (ctx, key) => findNewsletter(ctx.db, key.id),
    view: presentNewsletters,
  });

  writeRoutes(app, {
    docName: 'newsletters',
    add: {
      body: NEWSLETTER_ADD,
      permission: 'newsletter.add',
      invalidatesSite: true,
      options: (query) => ({ optInExisting: query.opt_in_existing === 'true', include: include(query) }),
      run: (ctx, input, { optInExisting }) => addNewsletter(ctx, input, { optInExisting }),
      id: (result) => result.newsletter.id,
      present: (ctx, result, options) => presentNewsletters(ctx, [result.newsletter], options.include),
      meta: (result) => result.meta,
    },
    edit: {
      body: NEWSLETTER_EDIT,
      permission: 'newsletter.edit',
      invalidatesSite: true,
      options: include,
      run: editNewsletter,
      present: (ctx, result, included) => presentNewsletters(ctx, [result.newsletter], included),
      meta: (result) => result.meta,
    },
  });
}

export function newslettersContentRoutes(app: FastifyInstance) {
  browseRoute<NewsletterRow>(app, {
    docName: 'newsletters',
    api: 'content',
    spec: NEWSLETTERS_BROWSE,
    present: (_ctx, rows) => rows.map(presentContentNewsletter),
  });
}
