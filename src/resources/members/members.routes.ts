import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { errors } from '../../errors.js';
import { parseInclude } from '../../browse/include.js';
import { viewRoutes } from '../../http/view-routes.js';
import { writeRoutes } from '../../http/write-routes.js';
import { parseBody } from '../../http/parse-body.js';
import { MEMBERS_BROWSE } from './members.browse.js';
import { bulkDeleteMembers, type BulkSelection } from './members.bulk.js';
import { bulkEditMembers } from './members.bulk-edit.js';
import { memberActivityFeed } from './members.activity-feed.js';
import { parsePageRequest } from '../../browse/pagination.js';
import { findMember } from './members.queries.js';
import { presentMemberById, presentMembers } from './members.views.js';
import { addMember, deleteMember, editMember } from './members.service.js';
import { memberCountHistory } from './members.stats.js';
import { MEMBER_ADD, MEMBER_BULK, MEMBER_EDIT, MEMBER_INCLUDES } from './members.schemas.js';

type Query = Record<string, unknown>;
const frame = framesOf('members');

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
 * `app-routes.ts` routes them, outside the Admin API's hooks, to the unmatched-route answer they had before.
 */
export const MEMBER_PATHS_NOT_BUILT = [['GET', 'members/stripe_connect/']] as const;

/** Members: Admin API only. No write purges the site cache (Ghost's members controller says so). */
export function membersAdminRoutes(app: FastifyInstance) {
  const include = (query: Query) => parseInclude(query.include, MEMBER_INCLUDES);
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
  viewRoutes(app, {
    docName: 'members',
    spec: MEMBERS_BROWSE,
    object: 'member',
    include: MEMBER_INCLUDES,
    params: { maxLimit: 100 },
    keys: ['id'],
    notFound: 'Member not found.',
    find: (ctx, key) => findMember(ctx.db, key.id),
    // A read shows the member's tiers and attribution whatever `include` says; a browse only when asked.
    view: (ctx, rows, include, method) => presentMembers(ctx, rows, include, method === 'read'),
  });
  writeRoutes(app, {
    docName: 'members',
    add: {
      permission: 'member.add',
      body: MEMBER_ADD,
      options: (query) => {
        assertEmailType(query);
        return include(query);
      },
      run: (ctx, input) => addMember(ctx, input),
      id: (id) => id,
      present: (ctx, id, included) => presentMemberById(ctx, id, included),
    },
    edit: {
      permission: 'member.edit',
      body: MEMBER_EDIT,
      options: include,
      run: async (ctx, id, input) => {
        await editMember(ctx, id, input);
        return id;
      },
      present: (ctx, id, included) => presentMemberById(ctx, id, included),
    },
    destroy: { permission: 'member.destroy', run: (ctx, id) => deleteMember(ctx, id) },
  });
  app.delete<{ Querystring: Query }>('/members/', { config: { frame: frame('bulkDestroy'), permission: 'member.destroy' } }, async (request) => {
    const deleted = await bulkDeleteMembers(request.ctx, selectionOf(request.query));
    // Shaped like the CSV importer's answer, as Ghost shapes it.
    return { meta: { stats: { successful: deleted, unsuccessful: 0 }, unsuccessfulIds: [], errors: [] } };
  });
}
