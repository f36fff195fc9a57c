import { describe, expect, it } from 'vitest';
import { ghostError, expectGhostError } from '../../../test/support.js';
import { TEST_INTEGRATION_ATTRIBUTION } from '../../../test/shapes.js';
import { useTestSite } from '../../../test/test-site.js';

/** `GET /members/events/`: the events recorded with member writes, in Ghost 5.130.6's shape (compared with it). */
const t = useTestSite({ caller: 'integration' });

interface FeedEvent {
  type: string;
  data: Record<string, unknown> & { id: string; created_at: string; member: Record<string, unknown> | null };
}
interface Feed {
  events: FeedEvent[];
  meta: { pagination: Record<string, unknown> };
}
const feed = async (query = '') => {
  const res = await t.admin.get(`/members/events/${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as Feed;
};
const q = (filter: string) => `?filter=${encodeURIComponent(filter)}`;

describe('GET /members/events/', () => {
  it('shows a sign-up, its subscription, an unsubscription and an e-mail change, newest first, with the member as it is now', async () => {
    const member = (await t.admin.post('/members/', { members: [{ email: 'feed@example.com', name: 'Feed' }] })).json().members[0];
    await t.admin.put(`/members/${member.id}/`, { members: [{ newsletters: [] }] });
    await t.admin.put(`/members/${member.id}/`, { members: [{ email: 'feed-new@example.com' }] });
    const { events, meta } = await feed(q(`data.member_id:${member.id}`));
    expect(meta.pagination).toEqual({ limit: 10, total: 4, pages: 1, page: null, next: null, prev: null });
    // Same-second events are ordered by id, newest first: the sign-up is recorded after its subscription.
    expect(events.map((e) => [e.type, e.data.subscribed])).toEqual([
      ['email_change_event', undefined],
      ['newsletter_event', false],
      ['signup_event', undefined],
      ['newsletter_event', true],
    ]);
    const who = { id: member.id, uuid: member.uuid, name: 'Feed', email: 'feed-new@example.com', avatar_image: expect.stringContaining('gravatar') };
    for (const event of events) expect(event.data.member).toEqual(who);
    const byType = (type: string) => events.find((e) => e.type === type)!.data;
    expect(byType('email_change_event')).toMatchObject({ from_email: 'feed@example.com', to_email: 'feed-new@example.com', member_id: member.id });
    expect(Object.keys(byType('signup_event'))).toEqual([
      'id',
      'created_at',
      'member_id',
      'attribution_id',
      'attribution_type',
      'attribution_url',
      'referrer_source',
      'referrer_medium',
      'referrer_url',
      'source',
      'member',
      'attribution',
    ]);
    expect(byType('signup_event')).toMatchObject({
      source: 'api',
      referrer_source: 'Integration: Test Integration',
      referrer_medium: 'Admin API',
      attribution: TEST_INTEGRATION_ATTRIBUTION,
    });
    expect(byType('newsletter_event')).toMatchObject({ source: 'api', newsletter: { slug: 'default-newsletter', status: 'active' } });
    // The member read shows the sign-up's attribution; browse does not show the key.
    expect((await t.admin.get(`/members/${member.id}/`)).json().members[0].attribution).toMatchObject({ referrer_medium: 'Admin API' });
    expect((await t.admin.get(`/members/?filter=id:${member.id}`)).json().members[0]).not.toHaveProperty('attribution');
  });

  it('pages with limit and a created_at filter, filters by type, and reports every kind’s total', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3])
      ids.push((await t.admin.post('/members/', { members: [{ email: `page-${n}@example.com`, subscribed: false }] })).json().members[0].id);
    const mine = ids.map((id) => `data.member_id:${id}`).join(',');
    const first = await feed(`?limit=2&${q(`type:signup_event+(${mine})`).slice(1)}`);
    expect(first.meta.pagination).toEqual({ limit: '2', total: 3, pages: 2, page: null, next: null, prev: null });
    expect(first.events).toHaveLength(2);
    const last = first.events[1]!.data.created_at;
    const rest = await feed(q(`type:signup_event+(${mine})+data.created_at:<='${last}'+id:-[${first.events.map((e) => e.data.id).join(',')}]`));
    expect(rest.events.map((e) => e.data.member_id)).toEqual(ids.filter((id) => !first.events.some((e) => e.data.member_id === id)));
    // Not subscribed: no newsletter events for them, and other kinds are left out by type.
    expect((await feed(q(`type:-signup_event+(${mine})`))).events).toEqual([]);
    // `limit=all` reads every event but keeps none, as Ghost slices with the text `all`.
    const all = await feed('?limit=all');
    expect(all.events).toEqual([]);
    expect(all.meta.pagination).toMatchObject({ limit: 'all', pages: null });
    expect(all.meta.pagination.total).toBeGreaterThanOrEqual(3);
    // Only sign-ups know a post; the other kinds drop out when data.post_id is used.
    expect((await feed(q('data.post_id:0123456789abcdef01234567'))).meta.pagination.total).toBe(0);
  });

  it('refuses other keys, type ORed with others, bad filters and bad limits as Ghost does', async () => {
    const badKey = await t.admin.get(`/members/events/${q('email:x@example.com')}`);
    expectGhostError(badKey, { status: 400, type: 'IncorrectUsageError', message: 'Cannot filter by email' });
    const ored = await t.admin.get(`/members/events/${q('type:signup_event,data.member_id:x')}`);
    expect(ghostError(ored)).toMatchObject({
      type: 'IncorrectUsageError',
      message: 'This filter is not supported because you cannot combine type filters with other filters in an OR.',
    });
    const broken = await t.admin.get(`/members/events/${q('(((')}`);
    expectGhostError(broken, {
      status: 400,
      type: 'BadRequestError',
      message: expect.stringMatching(/^Query Error: unexpected character in filter at char 3/),
    });
    const limit = await t.admin.get('/members/events/?limit=abc');
    expectGhostError(limit, { status: 422, type: 'ValidationError', message: 'Validation (matches) failed for limit' });
  });

  it('drops a member’s events with the member', async () => {
    const member = (await t.admin.post('/members/', { members: [{ email: 'gone@example.com' }] })).json().members[0];
    expect((await feed(q(`data.member_id:${member.id}`))).meta.pagination.total).toBe(2);
    await t.admin.del(`/members/${member.id}/`);
    expect((await feed(q(`data.member_id:${member.id}`))).meta.pagination.total).toBe(0);
  });
});
