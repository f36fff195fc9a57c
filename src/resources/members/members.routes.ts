import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import type { Ctx } from '../../ctx.js';
import type { MemberRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { parseInclude } from '../../browse/include.js';
import { browseRoute } from '../../http/browse-route.js';
import { readRoutes } from '../../http/read-routes.js';
import { assertIdParam } from '../../http/validate.js';
import { locationOf } from '../../http/location.js';
import { parseBody } from '../../http/parse-body.js';
import { readSetting } from '../../settings/settings.js';
import { MEMBERS_BROWSE } from './members.browse.js';
import { bulkDeleteMembers, type BulkSelection } from './members.bulk.js';
import { bulkEditMembers } from './members.bulk-edit.js';
import { memberActivityFeed } from './members.activity-feed.js';
import { attributionsOf } from './members.activity.js';
import { parsePageRequest } from '../../browse/pagination.js';
import { findMember, relationsOfMembers } from './members.queries.js';
import { presentMember } from './members.present.js';
import { addMember, deleteMember, editMember } from './members.service.js';
import { memberCountHistory } from './members.stats.js';
import { MEMBER_ADD, MEMBER_BULK, MEMBER_EDIT, MEMBER_INCLUDES } from './members.schemas.js';

type Query = Record<string, unknown>;
type Params = { id: string };
const frame = framesOf('members');

/**
 * Browse shows tiers only when asked; read, add and edit always show them, and the member's attribution
 * (Ghost's member BREAD service).
 */
async function presentMembers(ctx: Ctx, rows: MemberRow[], include: readonly string[], alwaysTiers: boolean) {
  const ids = rows.map((row) => row.id);
  const [relations, validationKey, attributions] = await Promise.all([
    relationsOfMembers(ctx.db, ids),
    readSetting(ctx.db, 'members_email_auth_secret'),
    alwaysTiers ? attributionsOf(ctx.db, ids) : undefined,
  ]);
  const view = {
    siteUrl: ctx.site.url,
    validationKey: validationKey ?? '',
    withTiers: alwaysTiers || include.includes('tiers') || include.includes('products'),
    withEmailRecipients: include.includes('email_recipients'),
    now: ctx.clock.now(),
    ...(attributions ? { attributions } : {}),
  };
  return rows.map((row) => presentMember(row, relations, view));
}

/** A member as read, add and edit answer it. */
async function presentOne(ctx: Ctx, id: string, include: readonly string[]) {
  const row = await findMember(ctx.db, id);
  if (!row) throw errors.notFound('Member not found.');
  return presentMembers(ctx, [row], include, true);
}

/** Ghost's `email_type` option on add; the mail it names is not sent (no member sign-in mail here yet). */
function assertEmailType(query: Query): void {
  if (query.email_type !== undefined && !['signin', 'signup', 'subscribe'].includes(String(query.email_type))) {
    throw errors.validation('Validation (AllowedValues) failed for email_type');
  }
}

const isTrue = (value: unknown) => value === true || value === 'true';
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
const selectionOf = (query: Query): BulkSelection => ({ filter: text(query.filter), search: text(query.search), all: isTrue(query.all) });

/**
 * Ghost endpoints not built here whose paths `/members/:id/` would otherwise take (and answer 422 for the id):
 * `app.ts` routes them, outside the Admin API's hooks, to the unmatched-route answer they had before.
 */
export const MEMBER_PATHS_NOT_BUILT = [['GET', 'members/stripe_connect/']] as const;

/** Members: Admin API only. No write purges the site cache (Ghost's members controller says so). */
export function membersAdminRoutes(app: FastifyInstance) {
  const include = (query: Query) => parseInclude(query.include, MEMBER_INCLUDES);
  browseRoute<MemberRow>(app, {
    docName: 'members',
    api: 'admin',
    spec: MEMBERS_BROWSE,
    permission: 'member.browse',
    params: { include: MEMBER_INCLUDES, maxLimit: 100 },
    present: (ctx, rows, params) => presentMembers(ctx, rows, params.include, false),
  });
  app.get<{ Querystring: Query }>('/members/events/', { config: { frame: frame('activityFeed'), permission: 'member.browse' } }, async (request) => {
    // Checked with Ghost's pattern; the value itself is kept as given (see the feed).
    if (request.query.limit !== undefined) parsePageRequest({ limit: request.query.limit });
    return memberActivityFeed(request.ctx, { limit: text(request.query.limit), filter: text(request.query.filter) ?? undefined });
  });
  app.put<{ Querystring: Query }>('/members/bulk/', { config: { frame: frame('bulkEdit'), permission: 'member.edit' } }, async (request) => ({
    bulk: { meta: await bulkEditMembers(request.ctx, selectionOf(request.query), parseBody(request, MEMBER_BULK)) },
  }));
  app.get('/members/stats/count/', { config: { frame: frame('memberStats'), permission: 'member.browse' } }, async (request) =>
    memberCountHistory(request.ctx.db),
  );
  readRoutes(app, {
    docName: 'members',
    keys: ['id'],
    permission: 'member.read',
    include: MEMBER_INCLUDES,
    notFound: 'Member not found.',
    read: async (ctx, key, request) => {
      const row = await findMember(ctx.db, key.id);
      return row && (await presentMembers(ctx, [row], request.include, true))[0];
    },
  });
  app.post<{ Querystring: Query }>('/members/', { config: { frame: frame('add'), permission: 'member.add' } }, async (request, reply) => {
    assertEmailType(request.query);
    const id = await addMember(request.ctx, parseBody(request, MEMBER_ADD));
    reply.status(201).header('Location', locationOf(request, id));
    return { members: await presentOne(request.ctx, id, include(request.query)) };
  });
  app.put<{ Params: Params; Querystring: Query }>('/members/:id/', { config: { frame: frame('edit'), permission: 'member.edit' } }, async (request) => {
    assertIdParam(request.params.id);
    await editMember(request.ctx, request.params.id, parseBody(request, MEMBER_EDIT));
    return { members: await presentOne(request.ctx, request.params.id, include(request.query)) };
  });
  app.delete<{ Params: Params }>('/members/:id/', { config: { frame: frame('destroy'), permission: 'member.destroy' } }, async (request, reply) => {
    assertIdParam(request.params.id);
    await deleteMember(request.ctx, request.params.id);
    return reply.status(204).send();
  });
  app.delete<{ Querystring: Query }>('/members/', { config: { frame: frame('bulkDestroy'), permission: 'member.destroy' } }, async (request) => {
    const deleted = await bulkDeleteMembers(request.ctx, selectionOf(request.query));
    // Shaped like the CSV importer's answer, as Ghost shapes it.
    return { meta: { stats: { successful: deleted, unsuccessful: 0 }, unsuccessfulIds: [], errors: [] } };
  });
}
