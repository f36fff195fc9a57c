import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../ctx.js';
import type { Permission } from '../../auth/permissions.js';
import { fromStorageUrl } from '../../content/ghost-url.js';
import { authorNames, newestPublished, postExists } from './stats.queries.js';
import { memberCountHistory } from '../members/members.stats.js';

type Query = Record<string, unknown>;
type Params = { id: string };

/**
 * The `/stats/` endpoints the admin app's dashboard and post analytics call. Members, subscriptions,
 * newsletters and web analytics do not exist in Quire yet, so every member, revenue, e-mail and visitor
 * figure is 0 (or an empty list) in exactly the shape Ghost 5.130.6 answers with a fresh site; posts,
 * their titles and authors are our own. Like Ghost, post ids in the path are not checked for their form.
 */
const MEMBERS: Permission = 'member.browse';
const POSTS: Permission = 'post.browse';

const today = (ctx: Ctx) => ctx.clock.now().toISOString().slice(0, 10);
/** Ghost on SQLite hands these timestamps on as the database stores them. */
const sqlTimestamp = (date: Date | null) => (date ? date.toISOString().slice(0, 19).replace('T', ' ') : null);

function limitOf(query: Query, fallback: number): number {
  const limit = typeof query.limit === 'string' ? parseInt(query.limit, 10) : NaN;
  return Number.isSafeInteger(limit) && limit > 0 ? Math.min(limit, 100) : fallback;
}

/** The dashboard's top posts: without view counts, the newest published ones, with zero figures. */
async function topPostsViews(ctx: Ctx, query: Query) {
  const posts = await newestPublished(ctx.db, limitOf(query, 5));
  const authors = await authorNames(
    ctx.db,
    posts.map((post) => post.id),
  );
  return posts.map((post) => ({
    post_id: post.id,
    title: post.title,
    published_at: sqlTimestamp(post.published_at),
    feature_image: fromStorageUrl(post.feature_image, ctx.site.url),
    status: post.status,
    authors: (authors.get(post.id) ?? []).join(', '),
    views: 0,
    sent_count: null,
    opened_count: null,
    open_rate: null,
    clicked_count: 0,
    click_rate: null,
    members: 0,
    free_members: 0,
    paid_members: 0,
  }));
}

/** An array of strings from a POST body's `key` (`postIds`, `postUuids`); anything else counts as none. */
function idsOf(body: unknown, key: string): string[] {
  const value = (body as Record<string, unknown> | null | undefined)?.[key];
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string').slice(0, 1000) : [];
}

export function statsRoutes(app: FastifyInstance) {
  const get = <P = object>(path: string, method: string, permission: Permission, answer: (ctx: Ctx, query: Query, params: P) => unknown) =>
    app.get<{ Querystring: Query; Params: P }>(`/stats/${path}/`, { config: { frame: { docName: 'stats', method }, permission } }, async (request) =>
      answer(request.ctx, request.query, request.params as P),
    );
  const empty = () => ({ stats: [] });
  const emptyWithMeta = () => ({ stats: [], meta: {} });

  // From the members table, by the rule of `/members/stats/count/` (each member from the day it was created,
  // with its status now); without Stripe nobody subscribes or cancels a paid plan. No member: today at zero.
  get('member_count', 'memberCountHistory', MEMBERS, async (ctx) => {
    const { data } = await memberCountHistory(ctx.db);
    const days = data.length > 0 ? data : [{ date: today(ctx), paid: 0, free: 0, comped: 0 }];
    const { paid, free, comped } = days[days.length - 1]!;
    return { stats: days.map((day) => ({ ...day, paid_subscribed: 0, paid_canceled: 0 })), meta: { totals: { paid, free, comped } } };
  });
  get('mrr', 'mrr', MEMBERS, (ctx) => ({ stats: [{ date: today(ctx), mrr: 0, currency: 'usd' }], meta: { totals: [{ currency: 'usd', mrr: 0 }] } }));
  get('subscriptions', 'subscriptions', MEMBERS, () => ({ stats: [], meta: { cadences: [], tiers: [], totals: [] } }));

  get('referrers', 'referrersHistory', POSTS, emptyWithMeta);
  get<Params>('referrers/posts/:id', 'postReferrers', POSTS, emptyWithMeta);
  get<Params>('posts/:id/stats', 'postStats', POSTS, async (ctx, _query, { id }) => {
    if (!(await postExists(ctx.db, id))) return empty();
    return { stats: [{ id, recipient_count: null, opened_count: null, open_rate: null, member_delta: 0, free_members: 0, paid_members: 0, visitors: 0 }] };
  });
  get<Params>('posts/:id/top-referrers', 'postReferrersAlpha', POSTS, empty);
  get<Params>('posts/:id/growth', 'postGrowthStats', POSTS, (_ctx, _query, { id }) => ({ stats: [{ post_id: id, free_members: 0, paid_members: 0, mrr: 0 }] }));
  get('top-posts', 'topPosts', POSTS, empty);
  get('top-posts-views', 'topPostsViews', POSTS, async (ctx, query) => ({ stats: await topPostsViews(ctx, query) }));
  get('top-content', 'topContent', POSTS, empty);
  get('top-sources-growth', 'topSourcesGrowth', POSTS, emptyWithMeta);
  get('newsletter-stats', 'newsletterStats', POSTS, empty);
  get('newsletter-basic-stats', 'newsletterBasicStats', POSTS, empty);
  get('newsletter-click-stats', 'newsletterClickStats', POSTS, empty);
  get('subscriber-count', 'subscriberCount', POSTS, () => ({ stats: [{ total: 0, deltas: [] }] }));

  const frame = (method: string) => ({ docName: 'stats', method });
  app.post('/stats/posts-visitor-counts/', { config: { frame: frame('postsVisitorCounts'), permission: POSTS } }, async () => ({
    stats: [{ data: { visitor_counts: {} } }],
  }));
  app.post('/stats/posts-member-counts/', { config: { frame: frame('postsMemberCounts'), permission: POSTS } }, async (request) => ({
    stats: [Object.fromEntries(idsOf(request.body, 'postIds').map((id) => [id, { free_members: 0, paid_members: 0 }]))],
  }));
}
