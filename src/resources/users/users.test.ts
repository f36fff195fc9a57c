import { describe, expect, it } from 'vitest';
import { OWNER, adminAuth, ghostError, login, expectGhostError, expectRefused } from '../../../test/support.js';
import { makePost, makeStaff, STAFF_PASSWORD } from '../../../test/factories.js';
import { loginAs, staffKey } from '../../../test/staff-support.js';
import { PROFILE_KEYS } from '../../../test/shapes.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite();

const ADMIN_USER_KEYS = [
  'id',
  'name',
  'slug',
  'email',
  ...PROFILE_KEYS,
  'accessibility',
  'status',
  'meta_title',
  'meta_description',
  'tour',
  'last_seen',
  'comment_notifications',
  'free_member_signup_notification',
  'paid_subscription_started_notification',
  'paid_subscription_canceled_notification',
  'mention_notifications',
  'recommendation_notifications',
  'milestone_notifications',
  'donation_notifications',
  'created_at',
  'updated_at',
];

describe('GET /users/', () => {
  it('lists users in the admin shape with roles, post counts, url and pagination', async () => {
    const author = await makeStaff(t, 'Author');
    await makePost(t, { authors: [author.id], status: 'published' });
    await makePost(t, { authors: [author.id, '1'] });
    const res = await t.admin.get('/users/?include=roles,count.posts&limit=all');
    expect(res.statusCode).toBe(200);
    const { users, meta } = res.json();
    expect(meta.pagination).toMatchObject({ page: 1, limit: 'all', pages: 1, next: null, prev: null });
    const listed = users.find((u: { id: string }) => u.id === author.id);
    expect(Object.keys(listed)).toEqual([...ADMIN_USER_KEYS, 'roles', 'count', 'url']);
    expect(listed).not.toHaveProperty('password');
    expect(listed.roles).toEqual([
      {
        id: t.roleId('Author'),
        name: 'Author',
        description: 'Authors',
        created_at: expect.stringMatching(/\.000Z$/),
        updated_at: expect.stringMatching(/\.000Z$/),
      },
    ]);
    expect(listed.count).toEqual({ posts: 2 });
    expect(listed.url).toBe(`http://127.0.0.1:2368/author/${author.slug}/`);
    const ownerUser = users.find((u: { id: string }) => u.id === '1');
    expect(ownerUser.count).toEqual({ posts: 1 });
    expect(ownerUser.url).toBe('http://127.0.0.1:2368/404/');
  });

  it('orders by last seen (never seen last), then name', async () => {
    const users = (await t.admin.get('/users/?limit=all')).json().users as { id: string; last_seen: string | null; name: string }[];
    expect(users[0]!.id).toBe('1');
    const seen = users.filter((u) => u.last_seen);
    expect(users.slice(0, seen.length)).toEqual(seen);
    const unseen = users.slice(seen.length).map((u) => u.name);
    expect(unseen).toEqual([...unseen].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('paginates with limit and page', async () => {
    const total = (await t.admin.get('/users/?limit=all')).json().users.length;
    const res = await t.admin.get('/users/?limit=1&page=2');
    expect(res.json().users).toHaveLength(1);
    expect(res.json().meta.pagination).toEqual({ page: 2, limit: 1, pages: total, total, next: total > 2 ? 3 : null, prev: 1 });
  });

  it('answers an integration key (users are in the allow-list for GET)', async () => {
    expect((await t.admin.get('/users/', t.integration())).statusCode).toBe(200);
  });

  it("refuses limit=abc with Ghost's rewritten validation error", async () => {
    const res = await t.admin.get('/users/?limit=abc');
    expectRefused(res, 422, 'list users', { context: 'Validation (matches) failed for limit undefined.limit' });
  });

  it('applies filter, order and fields (the browse machinery; test/browse compares them with Ghost)', async () => {
    const filtered = await t.admin.get('/users/?filter=status:active&fields=id,slug&order=name%20asc');
    expect(filtered.statusCode).toBe(200);
    const users = filtered.json().users as Record<string, unknown>[];
    expect(users.length).toBeGreaterThan(0);
    for (const user of users) expect(Object.keys(user).sort()).toEqual(['id', 'slug']);
    const none = await t.admin.get('/users/?filter=status:inactive');
    expect(none.json().users).toEqual([]);
    const bad = await t.admin.get('/users/?filter=nope:xx');
    expect(ghostError(bad)).toMatchObject({
      type: 'BadRequestError',
      message: 'Request not understood error, cannot list users.',
      context: "Could not understand request. Unknown filter field 'nope'.",
      code: 'UNKNOWN_FILTER_FIELD',
    });
  });

  it('adds permissions and roles.permissions when asked', async () => {
    const res = await t.admin.get('/users/1/?include=permissions,roles.permissions');
    const [user] = res.json().users;
    expect(user.permissions).toEqual([]);
    expect(user.roles[0].name).toBe('Owner');
    expect(user.roles[0].permissions).toEqual([]);
    const editor = await makeStaff(t, 'Editor');
    const [ed] = (await t.admin.get(`/users/${editor.id}/?include=roles.permissions`)).json().users;
    const names = ed.roles[0].permissions.map((p: { object_type: string; action_type: string }) => `${p.object_type}.${p.action_type}`);
    expect(names).toEqual(expect.arrayContaining(['post.publish', 'user.edit', 'invite.add']));
    expect(names).not.toContain('setting.edit');
    expect(Object.keys(ed.roles[0].permissions[0])).toEqual(['id', 'name', 'object_type', 'action_type', 'object_id', 'created_at', 'updated_at']);
  });
});

describe('GET /users/:id/, /slug/, /email/, /me/', () => {
  it('reads by id, slug, e-mail and me', async () => {
    const editor = await makeStaff(t, 'Editor');
    for (const url of [`/users/${editor.id}/`, `/users/slug/${editor.slug}/`, `/users/email/${editor.email}/`, `/users/email/${editor.email.toUpperCase()}/`]) {
      const res = await t.admin.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().users).toHaveLength(1);
      expect(res.json().users[0].id).toBe(editor.id);
    }
    const me = await t.admin.get('/users/me/?include=roles', await t.session(editor));
    expect(me.json().users[0]).toMatchObject({ id: editor.id, roles: [{ name: 'Editor' }] });
  });

  it('answers 404 User not found. for unknown users, and for me with an integration key', async () => {
    for (const [url, headers] of [
      ['/users/aaaaaaaaaaaaaaaaaaaaaaaa/', t.owner],
      ['/users/slug/nobody/', t.owner],
      ['/users/email/nobody@example.com/', t.owner],
      ['/users/me/', t.integration()],
    ] as const) {
      const res = await t.admin.get(url, headers);
      expect(res.statusCode, url).toBe(404);
      expect(ghostError(res)).toMatchObject({ type: 'NotFoundError', message: 'Resource not found error, cannot read user.', context: 'User not found.' });
    }
  });

  it('applies fields on reads, lookup key first, and ignores filter as Ghost does', async () => {
    const byId = await t.admin.get('/users/1/?fields=name,slug&filter=slug:nobody');
    expect(byId.json().users).toEqual([{ id: '1', name: OWNER.name, slug: 'owner' }]);
    const bySlug = await t.admin.get('/users/slug/owner/?fields=name');
    expect(bySlug.json().users).toEqual([{ slug: 'owner', name: OWNER.name }]);
    const byEmail = await t.admin.get(`/users/email/${OWNER.email}/?fields=name`);
    expect(byEmail.json().users).toEqual([{ email: OWNER.email, name: OWNER.name }]);
  });

  it('validates the id, slug and e-mail in the URL', async () => {
    for (const [url, context] of [
      ['/users/xyz/', 'Validation (matches) failed for id undefined.id'],
      ['/users/slug/Owner/', 'Validation (isSlug) failed for slug undefined.slug'],
      ['/users/email/not-an-email/', 'Validation (isEmail) failed for email undefined.email'],
    ]) {
      const res = await t.admin.get(url!);
      expectGhostError(res, { status: 422, type: 'ValidationError', message: 'Validation error, cannot read user.', context });
    }
  });
});

describe('staff tokens', () => {
  it('reads and renews your own token; it authenticates as you with your role', async () => {
    const editor = await makeStaff(t, 'Editor');
    const headers = await t.session(editor);
    const res = await t.admin.get('/users/me/token/', headers);
    expect(res.statusCode).toBe(200);
    const { apiKey } = res.json();
    expect(Object.keys(apiKey)).toEqual([
      'id',
      'type',
      'secret',
      'user_id',
      'role_id',
      'integration_id',
      'last_seen_at',
      'last_seen_version',
      'created_at',
      'updated_at',
    ]);
    expect(apiKey).toMatchObject({
      type: 'admin',
      user_id: editor.id,
      integration_id: null,
      role_id: t.roleId('Admin Integration'),
      secret: expect.stringMatching(/^[a-f0-9]{64}$/),
    });
    expect((await t.admin.get(`/users/${editor.id}/token/`, headers)).json().apiKey.secret).toBe(apiKey.secret);
    const key = `${apiKey.id}:${apiKey.secret}`;
    expect((await t.admin.get('/users/me/', adminAuth(key))).json().users[0].id).toBe(editor.id);
    // The user's role, not the key's Admin Integration role, decides: an Editor may not list integrations.
    expect((await t.admin.get('/integrations/', adminAuth(key))).statusCode).toBe(403);

    const renewed = await t.admin.put('/users/me/token/', {}, headers);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().apiKey.id).toBe(apiKey.id);
    expect(renewed.json().apiKey.secret).not.toBe(apiKey.secret);
    expect((await t.admin.get('/users/me/', adminAuth(key))).statusCode).toBe(401);
  });

  it("refuses someone else's token, unrewritten", async () => {
    const res = await t.admin.get('/users/1/token/', await t.session(await makeStaff(t, 'Administrator')));
    expectGhostError(res, { status: 403, type: 'NoPermissionError', message: 'You do not have permission to perform this action', context: null });
  });

  it('stops working when the user is suspended', async () => {
    const author = await makeStaff(t, 'Author');
    const key = await staffKey(t.app, await loginAs(t.app, author.email));
    expect((await t.admin.put(`/users/${author.id}/`, { users: [{ status: 'inactive' }] })).statusCode).toBe(200);
    expect((await t.admin.get('/users/', adminAuth(key))).statusCode).toBe(401);
    await expect(login(t.app, author.email, STAFF_PASSWORD)).rejects.toThrow(/403/);
  });
});
