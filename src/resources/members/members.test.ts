import { describe, expect, it } from 'vitest';
import { ghostError, OWNER, expectGhostError, countRows, expectRefused } from '../../../test/support.js';
import { first } from '../../../test/posts-support.js';
import { makeStaff } from '../../../test/factories.js';
import { TEST_INTEGRATION_ATTRIBUTION } from '../../../test/shapes.js';
import { NOBODY, useTestSite, itAnswersNotFound } from '../../../test/test-site.js';

const t = useTestSite({ caller: 'integration' });
const UNKNOWN = '6b01a0b05973b53791bbe3ff';

const addMember = (member: Record<string, unknown>, query = '') => t.admin.post(`/members/${query}`, { members: [member] });
const count = (table: 'members' | 'labels' | 'members_labels' | 'members_newsletters' | 'members_products') => countRows(t, table);
const paidTier = async () =>
  (await t.db.selectFrom('products').selectAll().where('type', '=', 'paid').executeTakeFirstOrThrow()) as { id: string; slug: string; name: string };

const KEYS = [
  'id',
  'uuid',
  'email',
  'name',
  'note',
  'geolocation',
  'subscribed',
  'created_at',
  'updated_at',
  'labels',
  'subscriptions',
  'avatar_image',
  'comped',
  'email_count',
  'email_opened_count',
  'email_open_rate',
  'status',
  'last_seen_at',
  'attribution',
  'unsubscribe_url',
  'tiers',
  'email_suppression',
  'newsletters',
];

describe('Admin members: add, read, edit, delete', () => {
  it('adds a member in Ghost’s shape, subscribed to the sign-up newsletter, with Location', async () => {
    const res = await addMember({ email: 'ann@example.com', name: 'Ann', note: 'Met at a fair', foo: 'dropped' });
    expect(res.statusCode).toBe(201);
    const member = first(res, 'members');
    expect(res.headers.location).toBe(`http://localhost:80/ghost/api/admin/members/${member.id}/`);
    expect(res.headers['x-cache-invalidate']).toBeUndefined();
    expect(Object.keys(member)).toEqual(KEYS);
    expect(member).toMatchObject({
      email: 'ann@example.com',
      name: 'Ann',
      note: 'Met at a fair',
      geolocation: null,
      subscribed: true,
      labels: [],
      subscriptions: [],
      comped: false,
      email_count: 0,
      email_opened_count: 0,
      email_open_rate: null,
      status: 'free',
      last_seen_at: null,
      // Who made the member: the test integration, through the Admin API.
      attribution: TEST_INTEGRATION_ATTRIBUTION,
      tiers: [],
      email_suppression: { suppressed: false, info: null },
    });
    expect(member.newsletters).toEqual([{ id: expect.any(String), name: OWNER.blogTitle, description: null, status: 'active' }]);
    expect(member.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(member.avatar_image).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=250&r=g&d=blank$/);
    expect(member.unsubscribe_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:2368/unsubscribe/\\?uuid=${member.uuid}&key=[0-9a-f]{64}$`));
    expect(member.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const read = await t.admin.get(`/members/${member.id}/`);
    expect(read.statusCode).toBe(200);
    expect(first(read, 'members')).toEqual(member);
  });

  it('subscribed: false or an explicit newsletter list decides the subscriptions', async () => {
    expect(first(await addMember({ email: 'quiet@example.com', subscribed: false }), 'members')).toMatchObject({ subscribed: false, newsletters: [] });
    const newsletter = first(await t.admin.post('/newsletters/', { newsletters: [{ name: 'Extra', subscribe_on_signup: false }] }), 'newsletters');
    const member = first(await addMember({ email: 'picky@example.com', newsletters: [{ id: newsletter.id }] }), 'members');
    expect(member.newsletters.map((n: { name: string }) => n.name)).toEqual(['Extra']);
    const byName = first(await addMember({ email: 'byname@example.com', newsletters: ['Extra'] }), 'members');
    expect(byName.newsletters.map((n: { name: string }) => n.name)).toEqual(['Extra']);
  });

  it('labels given by name are created when missing and reused when they exist', async () => {
    const before = await count('labels');
    const member = first(await addMember({ email: 'lab@example.com', labels: ['VIP', { name: 'Press' }] }), 'members');
    expect(member.labels.map((l: { name: string; slug: string }) => [l.name, l.slug])).toEqual([
      ['VIP', 'vip'],
      ['Press', 'press'],
    ]);
    expect(await count('labels')).toBe(before + 2);
    const again = first(await addMember({ email: 'lab2@example.com', labels: ['vip', { slug: 'press' }] }), 'members');
    expect(again.labels.map((l: { name: string }) => l.name)).toEqual(['VIP', 'Press']);
    expect(await count('labels')).toBe(before + 2);
  });

  it('a tier comps the member: status comped, a complimentary subscription, members_products row', async () => {
    const tier = await paidTier();
    const member = first(await addMember({ email: 'comp@example.com', tiers: [{ id: tier.id }] }), 'members');
    expect(member).toMatchObject({ status: 'comped', comped: true });
    expect(member.tiers.map((x: { id: string }) => x.id)).toEqual([tier.id]);
    expect(member.tiers[0]).toMatchObject({ slug: tier.slug, expiry_at: null, type: 'paid' });
    expect(member.subscriptions).toHaveLength(1);
    expect(member.subscriptions[0]).toMatchObject({
      id: '',
      status: 'active',
      plan: { id: '', nickname: 'Complimentary', interval: 'year', currency: 'USD', amount: 0 },
      price: { nickname: 'Complimentary', amount: 0, tier: { id: '', tier_id: tier.id } },
      customer: { id: '', name: null, email: 'comp@example.com' },
      offer: null,
    });
    const bySlug = first(await addMember({ email: 'comp2@example.com', products: [tier.slug] }), 'members');
    expect(bySlug.status).toBe('comped');
  });

  it('edits fields, labels, newsletters and tiers; a member without tiers is free again', async () => {
    const tier = await paidTier();
    const member = first(await addMember({ email: 'edit@example.com', labels: ['Old'] }), 'members');
    const res = await t.admin.put(`/members/${member.id}/`, {
      members: [{ name: 'Edited', note: 'n', email: 'edited@example.com', labels: ['New'], subscribed: false, tiers: [{ slug: tier.slug }] }],
    });
    expect(res.statusCode).toBe(200);
    expect(first(res, 'members')).toMatchObject({
      name: 'Edited',
      note: 'n',
      email: 'edited@example.com',
      labels: [{ name: 'New' }],
      subscribed: false,
      newsletters: [],
      status: 'comped',
    });
    const back = first(await t.admin.put(`/members/${member.id}/`, { members: [{ tiers: [], subscribed: true }] }), 'members');
    expect(back).toMatchObject({ status: 'free', comped: false, tiers: [], subscriptions: [], subscribed: true, labels: [{ name: 'New' }] });
  });

  it('deletes a member and its links', async () => {
    const member = first(await addMember({ email: 'gone@example.com', labels: ['Gone'] }), 'members');
    const links = await count('members_labels');
    const res = await t.admin.del(`/members/${member.id}/`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await count('members_labels')).toBe(links - 1);
    expect((await t.admin.get(`/members/${member.id}/`)).statusCode).toBe(404);
  });
});

describe('Admin members: validation', () => {
  it.each([
    ['no email', {}, 'Validation failed for members[0].'],
    ['an empty email', { email: '' }, 'Validation failed for email.'],
    ['an email starting with a comma', { email: ',a@example.com' }, 'Validation failed for email.'],
    ['a name of 192', { email: 'long@example.com', name: 'x'.repeat(192) }, 'Validation failed for name.'],
    ['a note of 2001', { email: 'long@example.com', note: 'x'.repeat(2001) }, 'Validation failed for note.'],
    ['labels not a list', { email: 'l@example.com', labels: 'VIP' }, 'Validation failed for labels.'],
  ])('add with %s → 422, nothing written', async (_case, member, context) => {
    const before = await count('members');
    const res = await addMember(member);
    expectGhostError(res, { status: 422, type: 'ValidationError', message: 'Validation error, cannot save member.', context });
    expect(await count('members')).toBe(before);
  });

  it('an address the validator refuses → 422 Invalid Email', async () => {
    const res = await addMember({ email: 'not-an-email' });
    expectRefused(res, 422, 'save member', { context: 'Invalid Email', property: 'email' });
  });

  it('a taken address (in any case) → 422 Member already exists, on add and on edit', async () => {
    await addMember({ email: 'taken@example.com' });
    const res = await addMember({ email: 'TAKEN@example.com' });
    expectRefused(res, 422, 'save member', { context: 'Member already exists. Attempting to add member with existing email address', property: 'email' });
    const other = first(await addMember({ email: 'other@example.com' }), 'members');
    const edit = await t.admin.put(`/members/${other.id}/`, { members: [{ email: 'taken@example.com' }] });
    expectGhostError(edit, {
      status: 422,
      message: 'Validation error, cannot edit member.',
      context: 'Member already exists. Attempting to edit member with existing email address',
    });
  });

  it('comped: true needs Stripe → 422 Missing Stripe connection', async () => {
    const res = await addMember({ email: 'stripe@example.com', comped: true });
    expectGhostError(res, { status: 422, type: 'ValidationError', property: 'comped' });
    expect(ghostError(res).context).toMatch(/^Missing Stripe connection\. /);
  });

  it('two tiers, an archived tier, an unknown tier → 400, and no partial write (labels made on the way are rolled back)', async () => {
    const tier = await paidTier();
    const archived = first(await t.admin.post('/tiers/', { tiers: [{ name: 'Old tier', currency: 'usd' }] }), 'tiers');
    await t.admin.put(`/tiers/${archived.id}/`, { tiers: [{ active: false }] });
    const labels = await count('labels');
    const members = await count('members');
    for (const [tiers, context] of [
      [[{ id: tier.id }, { slug: 'free' }], 'A member cannot have more than one Product'],
      [[{ id: archived.id }], 'Cannot use archived Tiers'],
      [[{ id: UNKNOWN }], `Could not find Product "${UNKNOWN}"`],
    ] as const) {
      const res = await addMember({ email: 'tiers@example.com', labels: ['Never made'], tiers });
      expectGhostError(res, { status: 400, type: 'BadRequestError', context });
    }
    const member = first(await addMember({ email: 'tiers2@example.com' }), 'members');
    const edit = await t.admin.put(`/members/${member.id}/`, { members: [{ name: 'Changed', labels: ['Never made'], tiers: [{ id: archived.id }] }] });
    expect(edit.statusCode).toBe(400);
    expect(first(await t.admin.get(`/members/${member.id}/`), 'members').name).toBeNull();
    expect(await count('labels')).toBe(labels);
    expect(await count('members')).toBe(members + 1);
  });
});

describe('Admin members: browse', () => {
  it('newest first, tiers only when included, limit clamped to 100', async () => {
    const res = await t.admin.get('/members/?limit=all');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta.pagination).toMatchObject({ page: 1, limit: 100 });
    const dates = body.members.map((m: { created_at: string }) => m.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(body.members[0].tiers).toBeUndefined();
    const withTiers = (await t.admin.get('/members/?include=tiers&limit=1')).json();
    expect(withTiers.members[0].tiers).toEqual(expect.any(Array));
    expect(withTiers.meta.pagination).toMatchObject({ limit: 1, next: 2 });
    const projected = (await t.admin.get('/members/?fields=email,status&limit=2')).json();
    expect(projected.members.map((m: object) => Object.keys(m))).toEqual([
      ['email', 'status'],
      ['email', 'status'],
    ]);
  });

  it('filters by label, status, subscription, newsletter, tier, email, name and dates; search on name and e-mail', async () => {
    const tier = await paidTier();
    await addMember({ email: 'f1@filter.test', name: 'Filter One', labels: ['Filtered'] });
    await addMember({ email: 'f2@filter.test', name: 'Filter Two', subscribed: false, tiers: [{ id: tier.id }] });
    const emails = async (query: string) => {
      const res = await t.admin.get(`/members/?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json()
        .members.map((m: { email: string }) => m.email)
        .filter((e: string) => e.endsWith('@filter.test'))
        .sort();
    };
    const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;
    expect(await emails(q('label:filtered'))).toEqual(['f1@filter.test']);
    expect(await emails(q('labels.slug:filtered'))).toEqual(['f1@filter.test']);
    expect(await emails(q('status:comped'))).toEqual(['f2@filter.test']);
    expect(await emails(q("status:free+email:~'filter.test'"))).toEqual(['f1@filter.test']);
    expect(await emails(q("subscribed:false+email:~'filter.test'"))).toEqual(['f2@filter.test']);
    expect(await emails(q("subscribed:true+email:~'filter.test'"))).toEqual(['f1@filter.test']);
    expect(await emails(q(`tier:${tier.slug}+email:~'filter.test'`))).toEqual(['f2@filter.test']);
    expect(await emails(q(`tiers.slug:${tier.slug}+email:~'filter.test'`))).toEqual(['f2@filter.test']);
    const newsletter = (await t.db.selectFrom('newsletters').select('slug').orderBy('sort_order').executeTakeFirstOrThrow()).slug;
    expect(await emails(q(`newsletters.slug:${newsletter}+email:~'filter.test'`))).toEqual(['f1@filter.test']);
    expect(await emails(q('email:f2@filter.test'))).toEqual(['f2@filter.test']);
    expect(await emails(q("name:'Filter One'"))).toEqual(['f1@filter.test']);
    expect(await emails(q("created_at:>2000-01-01+email:~'filter.test'"))).toEqual(['f1@filter.test', 'f2@filter.test']);
    expect(await emails(q('created_at:<2000-01-01'))).toEqual([]);
    expect(await emails('search=filter%20two')).toEqual(['f2@filter.test']);
    expect(await emails('search=F1@FILTER')).toEqual(['f1@filter.test']);
  });

  it('an invalid filter → 400', async () => {
    const res = await t.admin.get('/members/?filter=status:');
    expect(res.statusCode).toBe(400);
    expect(ghostError(res).type).toBe('BadRequestError');
  });
});

describe('Admin members: bulk delete and stats', () => {
  it('stats/count answers Ghost’s shape from the members there are', async () => {
    const res = await t.admin.get('/members/stats/count/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['resource', 'total', 'data']);
    expect(body.resource).toBe('members');
    expect(body.total).toBe(await count('members'));
    const last = body.data.at(-1);
    expect(Object.keys(last)).toEqual(['date', 'paid', 'free', 'comped']);
    expect(last.date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(last.paid + last.free + last.comped).toBe(body.total);
    const comped = await t.db.selectFrom('members').select('id').where('status', '=', 'comped').execute();
    expect(last.comped).toBe(comped.length);
  });

  it('without a filter or all=true → 400; with a filter deletes just those', async () => {
    const bare = await t.admin.del('/members/');
    expectGhostError(bare, { status: 400, type: 'IncorrectUsageError', message: 'Cannot perform bulk delete without a filter or all=true' });
    await addMember({ email: 'b1@bulk.test', labels: ['Bulk'] });
    await addMember({ email: 'b2@bulk.test', labels: ['Bulk'] });
    const before = await count('members');
    const res = await t.admin.del('/members/?filter=label:bulk');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ meta: { stats: { successful: 2, unsuccessful: 0 }, unsuccessfulIds: [], errors: [] } });
    expect(await count('members')).toBe(before - 2);
  });

  it('all=true deletes every member', async () => {
    const res = await t.admin.del('/members/?all=true');
    expect(res.statusCode).toBe(200);
    expect(await count('members')).toBe(0);
    expect(await count('members_newsletters')).toBe(0);
    expect((await t.admin.get('/members/stats/count/')).json()).toEqual({ resource: 'members', total: 0, data: [] });
  });
});

describe('Admin members: not found and permissions', () => {
  itAnswersNotFound(
    t,
    [
      ['GET', `/members/${UNKNOWN}/`, 'Resource not found error, cannot read member.', 'Member not found.'],
      ['PUT', `/members/${UNKNOWN}/`, 'Resource not found error, cannot edit member.', `Could not find Member ${UNKNOWN}`],
      ['DELETE', `/members/${UNKNOWN}/`, 'Resource not found error, cannot delete member.', 'Resource could not be found.'],
    ],
    () => ({ members: [{ name: 'x' }] }),
  );

  it('Administrators may manage members; Editors, Authors and Contributors may not even list them', async () => {
    const administrator = await t.session(await makeStaff(t, 'Administrator'));
    expect((await t.admin.post('/members/', { members: [{ email: 'byadmin@example.com' }] }, administrator)).statusCode).toBe(201);
    expect((await t.admin.get('/members/', administrator)).statusCode).toBe(200);
    for (const role of ['Editor', 'Author', 'Contributor'] as const) {
      const caller = await t.session(await makeStaff(t, role));
      const list = await t.admin.get('/members/', caller);
      expectRefused(list, 403, 'list members');
      const add = await t.admin.post('/members/', { members: [{ email: `by-${role.toLowerCase()}@example.com` }] }, caller);
      expect(ghostError(add)).toMatchObject({ type: 'NoPermissionError', message: 'Permission error, cannot save member.' });
    }
  });
});

describe('Admin members: endpoints not built', () => {
  it.each([['GET', '/members/stripe_connect/']])('%s %s answers as an unmatched Ghost route, with or without credentials', async (method, path) => {
    for (const caller of [undefined, NOBODY]) {
      const res = await t.admin.request(method, path, undefined, caller);
      expectGhostError(res, { status: 404, type: 'NotFoundError', code: 'ENDPOINT_NOT_BUILT' });
    }
  });
});
