import { describe, expect, it } from 'vitest';
import { makePost, makeStaff } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite();

describe('member and revenue stats', () => {
  it('answer Ghost’s shapes with zeros (there are no members yet)', async () => {
    const date = new Date().toISOString().slice(0, 10);
    expect((await t.admin.get('/stats/member_count/')).json()).toEqual({
      stats: [{ date, paid: 0, free: 0, comped: 0, paid_subscribed: 0, paid_canceled: 0 }],
      meta: { totals: { paid: 0, free: 0, comped: 0 } },
    });
    expect((await t.admin.get('/stats/mrr/')).json()).toEqual({ stats: [{ date, mrr: 0, currency: 'usd' }], meta: { totals: [{ currency: 'usd', mrr: 0 }] } });
    expect((await t.admin.get('/stats/subscriptions/')).json()).toEqual({ stats: [], meta: { cadences: [], tiers: [], totals: [] } });
    expect((await t.admin.get('/stats/subscriber-count/')).json()).toEqual({ stats: [{ total: 0, deltas: [] }] });
    for (const path of ['referrers', 'top-sources-growth']) expect((await t.admin.get(`/stats/${path}/`)).json()).toEqual({ stats: [], meta: {} });
    for (const path of ['top-posts', 'top-content', 'newsletter-stats', 'newsletter-basic-stats', 'newsletter-click-stats']) {
      expect((await t.admin.get(`/stats/${path}/`)).json()).toEqual({ stats: [] });
    }
  });

  it('count members by status from the members table', async () => {
    for (const [email, extra] of [
      ['stat-free@example.com', {}],
      ['stat-comped@example.com', { tiers: [{ slug: 'default-product' }] }],
    ] as const) {
      expect((await t.admin.post('/members/', { members: [{ email, ...extra }] })).statusCode).toBe(201);
    }
    const { stats, meta } = (await t.admin.get('/stats/member_count/')).json();
    expect(meta.totals).toEqual({ paid: 0, free: 1, comped: 1 });
    expect(stats.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), paid: 0, free: 1, comped: 1, paid_subscribed: 0, paid_canceled: 0 });
  });

  it('are for Administrators; Editors get 403 and integrations 501', async () => {
    const editor = await makeStaff(t, 'Editor');
    expect((await t.admin.get('/stats/member_count/', await t.session(editor))).statusCode).toBe(403);
    expect((await t.admin.get('/stats/member_count/', t.integration())).statusCode).toBe(501);
  });
});

describe('post stats', () => {
  it('list the newest published posts as top posts, with their authors and zero figures', async () => {
    const older = await makePost(t, { title: 'Older Stat', status: 'published', published_at: '2026-01-01T10:00:00.000Z' });
    const newer = await makePost(t, { title: 'Newer Stat', status: 'published', published_at: '2026-02-01T10:00:00.000Z' });
    await makePost(t, { title: 'Draft Stat' });
    const { stats } = (await t.admin.get('/stats/top-posts-views/?limit=2')).json();
    expect(stats.map((s: { post_id: string }) => s.post_id)).toEqual([newer, older]);
    expect(stats[0]).toEqual({
      post_id: newer,
      title: 'Newer Stat',
      published_at: '2026-02-01 10:00:00',
      feature_image: null,
      status: 'published',
      authors: 'Owner Person',
      views: 0,
      sent_count: null,
      opened_count: null,
      open_rate: null,
      clicked_count: 0,
      click_rate: null,
      members: 0,
      free_members: 0,
      paid_members: 0,
    });
  });

  it('answer per post, and an unknown post with an empty list', async () => {
    const id = await makePost(t, { title: 'One Stat', status: 'published' });
    expect((await t.admin.get(`/stats/posts/${id}/stats/`)).json()).toEqual({
      stats: [{ id, recipient_count: null, opened_count: null, open_rate: null, member_delta: 0, free_members: 0, paid_members: 0, visitors: 0 }],
    });
    expect((await t.admin.get(`/stats/posts/${'0'.repeat(24)}/stats/`)).json()).toEqual({ stats: [] });
    expect((await t.admin.get(`/stats/posts/${id}/growth/`)).json()).toEqual({ stats: [{ post_id: id, free_members: 0, paid_members: 0, mrr: 0 }] });
    expect((await t.admin.get(`/stats/referrers/posts/${id}/`)).json()).toEqual({ stats: [], meta: {} });
    expect((await t.admin.get(`/stats/posts/${id}/top-referrers/`)).json()).toEqual({ stats: [] });
    expect((await t.admin.post('/stats/posts-member-counts/', { postIds: [id, 5] })).json()).toEqual({
      stats: [{ [id]: { free_members: 0, paid_members: 0 } }],
    });
    expect((await t.admin.post('/stats/posts-visitor-counts/', { postUuids: ['x'] })).json()).toEqual({ stats: [{ data: { visitor_counts: {} } }] });
  });

  it('are open to contributors', async () => {
    const contributor = await makeStaff(t, 'Contributor');
    expect((await t.admin.get('/stats/top-posts-views/', await t.session(contributor))).statusCode).toBe(200);
  });
});
