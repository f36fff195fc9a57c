import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../ctx.js';
import type { NewsletterRow } from '../../db/schema.js';
import { parseInclude } from '../../browse/include.js';
import { browseRoute } from '../../http/browse-route.js';
import { readRoutes } from '../../http/read-routes.js';
import { assertIdParam } from '../../http/validate.js';
import { locationOf } from '../../http/location.js';
import { parseBody } from '../../http/parse-body.js';
import { NEWSLETTERS_BROWSE } from './newsletters.browse.js';
import { countsOfNewsletters, findNewsletter, type NewsletterCount } from './newsletters.queries.js';
import { presentAdminNewsletter, presentContentNewsletter } from './newsletters.present.js';
import { addNewsletter, editNewsletter, type NewsletterResult } from './newsletters.service.js';
import { NEWSLETTER_ADD, NEWSLETTER_EDIT, NEWSLETTER_INCLUDES } from './newsletters.schemas.js';

type Query = Record<string, unknown>;
type Params = { id: string };

const frame = (method: string) => ({ docName: 'newsletters', method });

async function presentNewsletters({ db, site }: Ctx, rows: NewsletterRow[], include: readonly string[]) {
  const wanted = NEWSLETTER_INCLUDES.filter((name) => include.includes(name)) as NewsletterCount[];
  const counts = await countsOfNewsletters(
    db,
    rows.map((row) => row.id),
    wanted,
  );
  return rows.map((row) => presentAdminNewsletter(row, site.url, wanted.length ? (counts.get(row.id) ?? {}) : undefined));
}

async function respond(ctx: Ctx, { newsletter, meta }: NewsletterResult, include: readonly string[]) {
  return { newsletters: await presentNewsletters(ctx, [newsletter], include), ...(meta ? { meta } : {}) };
}

/** Newsletters: writes purge the site cache (newsletters show in Portal); Content API lists active ones. */
export function newslettersAdminRoutes(app: FastifyInstance) {
  const include = (query: Query) => parseInclude(query.include, NEWSLETTER_INCLUDES);

  browseRoute<NewsletterRow>(app, {
    docName: 'newsletters',
    api: 'admin',
    spec: NEWSLETTERS_BROWSE,
    permission: 'newsletter.browse',
    params: { include: NEWSLETTER_INCLUDES },
    present: (ctx, rows, params) => presentNewsletters(ctx, rows, params.include),
  });
  readRoutes(app, {
    docName: 'newsletters',
    keys: ['id'],
    permission: 'newsletter.read',
    include: NEWSLETTER_INCLUDES,
    notFound: 'Newsletter not found.',
    read: async (ctx, key, request) => {
      const row = await findNewsletter(ctx.db, key.id);
      return row && (await presentNewsletters(ctx, [row], request.include))[0];
    },
  });

  app.post<{ Querystring: Query }>(
    '/newsletters/',
    { config: { frame: frame('add'), permission: 'newsletter.add', invalidatesSite: true } },
    async (request, reply) => {
      const optInExisting = request.query.opt_in_existing === 'true';
      const result = await addNewsletter(request.ctx, parseBody(request, NEWSLETTER_ADD), { optInExisting });
      reply.status(201).header('Location', locationOf(request, result.newsletter.id));
      return respond(request.ctx, result, include(request.query));
    },
  );

  app.put<{ Params: Params; Querystring: Query }>(
    '/newsletters/:id/',
    { config: { frame: frame('edit'), permission: 'newsletter.edit', invalidatesSite: true } },
    async (request) => {
      assertIdParam(request.params.id);
      const result = await editNewsletter(request.ctx, request.params.id, parseBody(request, NEWSLETTER_EDIT));
      return respond(request.ctx, result, include(request.query));
    },
  );
}

export function newslettersContentRoutes(app: FastifyInstance) {
  browseRoute<NewsletterRow>(app, {
    docName: 'newsletters',
    api: 'content',
    spec: NEWSLETTERS_BROWSE,
    present: (_ctx, rows) => rows.map(presentContentNewsletter),
  });
}
