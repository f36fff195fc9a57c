import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWNER, adminAuth, ghostError, expectGhostError, expectRefused } from '../../../test/support.js';
import { makePost, makeStaff, STAFF_PASSWORD } from '../../../test/factories.js';
import { loginAs, staffKey } from '../../../test/staff-support.js';
import { NOBODY, useTestSite, withTestSite } from '../../../test/test-site.js';

const t = useTestSite();

describe('PUT /users/:id/', () => {
  it('edits writable fields, drops the password and unknown fields, sends X-Cache-Invalidate for public ones', async () => {
    const author = await makeStaff(t, 'Author');
    const before = await t.connection.db.selectFrom('users').select('password').where('id', '=', author.id).executeTakeFirstOrThrow();
    const res = await t.admin.put(`/users/${author.id}/`, {
      users: [
        {
          name: 'New Name',
          bio: 'Hello',
          website: 'example.com',
          location: '',
          password: 'Hacked-password-1',
          foo: 'bar',
          comment_notifications: 'false',
          profile_image: '/content/images/me.png',
        },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    const [user] = res.json().users;
    expect(user).toMatchObject({
      name: 'New Name',
      bio: 'Hello',
      website: 'http://example.com',
      location: null,
      comment_notifications: false,
      profile_image: 'http://127.0.0.1:2368/content/images/me.png',
    });
    expect(user).not.toHaveProperty('foo');
    const after = await t.connection.db.selectFrom('users').select('password').where('id', '=', author.id).executeTakeFirstOrThrow();
    expect(after.password).toBe(before.password);
    const quiet = await t.admin.put(`/users/${author.id}/`, { users: [{ tour: '["done"]' }] });
    expect(quiet.statusCode).toBe(200);
    expect(quiet.headers['x-cache-invalidate']).toBeUndefined();
  });

  it('regenerates a changed slug and keeps it unique', async () => {
    const a = await makeStaff(t, 'Author');
    const b = await makeStaff(t, 'Author');
    const res = await t.admin.put(`/users/${b.id}/`, { users: [{ slug: a.slug }] });
    expect(res.json().users[0].slug).toBe(`${a.slug}-2`);
    expect((await t.admin.put(`/users/${a.id}/`, { users: [{ slug: a.slug }] })).json().users[0].slug).toBe(a.slug);
  });

  it.each([
    [{ name: '' }, 'Value in [users.name] cannot be blank.'],
    [{ name: null }, 'Value in [users.name] cannot be blank.'],
    [{ name: 'x'.repeat(192) }, 'Value in [users.name] exceeds maximum length of 191 characters. users.name'],
    [{ email: null }, 'Value in [users.email] cannot be blank. users.email'],
    [{ email: 'nope' }, 'Validation (isEmail) failed for email users.email'],
    [{ bio: 'x'.repeat(251) }, 'Value in [users.bio] exceeds maximum length of 250 characters. users.bio'],
    [{ location: 'x'.repeat(151) }, 'Value in [users.location] exceeds maximum length of 150 characters. users.location'],
    [{ website: 'not a url' }, 'Validation (isEmptyOrURL) failed for website users.website'],
    [{ facebook: 'x'.repeat(2001) }, 'Value in [users.facebook] exceeds maximum length of 2000 characters. users.facebook'],
    [{ threads: 'x'.repeat(192) }, 'Value in [users.threads] exceeds maximum length of 191 characters. users.threads'],
    [{ status: 'weird' }, 'Validation (isIn) failed for status users.status'],
    [{ visibility: 'hidden' }, 'Validation (isIn) failed for visibility users.visibility'],
    [{ meta_title: 'x'.repeat(301) }, 'Value in [users.meta_title] exceeds maximum length of 300 characters. users.meta_title'],
    [{ meta_description: 'x'.repeat(501) }, 'Value in [users.meta_description] exceeds maximum length of 500 characters. users.meta_description'],
    [{ comment_notifications: 'maybe' }, 'Value in [users.comment_notifications] must be one of true, false, 0 or 1. users.comment_notifications'],
    [{ email: OWNER.email.toUpperCase() }, 'Email is already in use'],
    [{ roles: [{ id: 'a' }, { id: 'b' }] }, 'Only one role per user is supported at the moment.'],
    [{ roles: ['Nope'] }, 'Role should be an existing role id or a role name Invalid role assigned to the user'],
  ])('refuses %j with 422 and leaves the user unchanged', async (payload, context) => {
    const author = await makeStaff(t, 'Author');
    const res = await t.admin.put(`/users/${author.id}/`, { users: [{ bio: 'should not stick', ...payload }] });
    expectGhostError(res, { status: 422, type: 'ValidationError', message: 'Validation error, cannot edit user.', context });
    const row = await t.connection.db.selectFrom('users').select('bio').where('id', '=', author.id).executeTakeFirstOrThrow();
    expect(row.bio).toBeNull();
  });

  it('refuses the Owner role, a bad root and a mismatched id', async () => {
    const author = await makeStaff(t, 'Author');
    const owner422 = await t.admin.put(`/users/${author.id}/`, { users: [{ roles: [{ id: t.roleId('Owner') }] }] });
    expect(ghostError(owner422)).toMatchObject({ type: 'ValidationError', context: 'This method does not support assigning the owner role' });
    const noRoot = await t.admin.put(`/users/${author.id}/`, { user: [{ name: 'x' }] });
    expectRefused(noRoot, 400, 'edit user', { context: "No root key ('users') provided." });
    const mismatch = await t.admin.put(`/users/${author.id}/`, { users: [{ id: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'x' }] });
    expect(ghostError(mismatch)).toMatchObject({ type: 'BadRequestError', context: 'Invalid id provided.' });
    const missing = await t.admin.put('/users/aaaaaaaaaaaaaaaaaaaaaaaa/', { users: [{ name: 'x' }] });
    expectRefused(missing, 404, 'edit user', { context: 'User not found' });
  });

  it('changes roles by id (and by name for the Owner)', async () => {
    const author = await makeStaff(t, 'Author');
    const byId = await t.admin.put(`/users/${author.id}/?include=roles`, { users: [{ roles: [{ id: t.roleId('Editor') }] }] });
    expect(byId.json().users[0].roles[0].name).toBe('Editor');
    const byName = await t.admin.put(`/users/${author.id}/?include=roles`, { users: [{ roles: ['Contributor'] }] });
    expect(byName.json().users[0].roles[0].name).toBe('Contributor');
  });

  describe('model-level rules', () => {
    const refused = (res: { statusCode: number }) => {
      expect(res.statusCode).toBe(403);
      expect(ghostError(res as never)).toMatchObject({
        type: 'NoPermissionError',
        message: 'Permission error, cannot edit user.',
        context: 'You do not have permission to edit users',
      });
    };

    it('lets everyone edit themselves, but not their own status or role', async () => {
      const contributor = await makeStaff(t, 'Contributor');
      const headers = await t.session(contributor);
      expect((await t.admin.put('/users/me/', { users: [{ bio: 'Me' }] }, headers)).statusCode).toBe(200);
      refused(await t.admin.put('/users/me/', { users: [{ status: 'inactive' }] }, headers));
      refused(await t.admin.put(`/users/${contributor.id}/`, { users: [{ roles: [{ id: t.roleId('Author') }] }] }, headers));
      refused(await t.admin.put('/users/1/', { users: [{ bio: 'x' }] }, headers));
    });

    it("lets only the Owner edit the Owner, and never change the Owner's role", async () => {
      const admin = await makeStaff(t, 'Administrator');
      refused(await t.admin.put('/users/1/', { users: [{ name: 'Usurper' }] }, await t.session(admin)));
      expect((await t.admin.put('/users/1/', { users: [{ bio: 'Owner bio' }] })).statusCode).toBe(200);
    });

    it('lets (Super) Editors edit Authors and Contributors only, and assign only those roles', async () => {
      for (const role of ['Editor', 'Super Editor'] as const) {
        const editor = await makeStaff(t, role);
        const headers = await t.session(editor);
        const author = await makeStaff(t, 'Author');
        const admin = await makeStaff(t, 'Administrator');
        const other = await makeStaff(t, 'Editor');
        expect((await t.admin.put(`/users/${author.id}/`, { users: [{ bio: 'ok' }] }, headers)).statusCode).toBe(200);
        expect((await t.admin.put(`/users/${author.id}/`, { users: [{ roles: [{ id: t.roleId('Contributor') }] }] }, headers)).statusCode).toBe(200);
        refused(await t.admin.put(`/users/${author.id}/`, { users: [{ roles: [{ id: t.roleId('Administrator') }] }] }, headers));
        refused(await t.admin.put(`/users/${admin.id}/`, { users: [{ bio: 'no' }] }, headers));
        refused(await t.admin.put(`/users/${other.id}/`, { users: [{ bio: 'no' }] }, headers));
      }
    });

    it('answers 404 Role not found when a non-Owner names a role instead of giving its id (Ghost looks it up by id)', async () => {
      const admin = await makeStaff(t, 'Administrator');
      const author = await makeStaff(t, 'Author');
      const res = await t.admin.put(`/users/${author.id}/`, { users: [{ roles: ['Editor'] }] }, await t.session(admin));
      expectRefused(res, 404, 'edit user', { context: 'Role not found' });
    });

    it('refuses an Administrator making someone Owner', async () => {
      const admin = await makeStaff(t, 'Administrator');
      const author = await makeStaff(t, 'Author');
      refused(await t.admin.put(`/users/${author.id}/`, { users: [{ roles: [{ id: t.roleId('Owner') }] }] }, await t.session(admin)));
    });
  });
});

describe('DELETE /users/:id/', () => {
  it("tags the user's posts #<slug>, hands them to the Owner, nulls revision authors and answers with the backup name", async () => {
    const author = await makeStaff(t, 'Author');
    const { db } = t.connection;
    const solo = await makePost(t, { authors: [author.id] });
    const withOwner = await makePost(t, { authors: [author.id, '1'] });
    const ownerFirst = await makePost(t, { authors: ['1', author.id] });
    await db
      .insertInto('post_revisions')
      .values({
        id: 'ffffffffffffffffffffff01',
        post_id: solo,
        lexical: null,
        created_at_ts: Date.now(),
        created_at: new Date(),
        author_id: author.id,
        title: 't',
        post_status: 'draft',
        reason: 'initial',
        feature_image: null,
        feature_image_alt: null,
        feature_image_caption: null,
        custom_excerpt: null,
      })
      .execute();
    const key = await staffKey(t.app, await loginAs(t.app, author.email));

    const res = await t.admin.del(`/users/${author.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(res.json()).toEqual({ meta: { filename: expect.stringMatching(/^test-site\.ghost\.\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.json$/) } });
    const backup = path.join(t.config.contentDir, 'data', res.json().meta.filename);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(backup, 'utf8'));
    expect(saved.data.users).toEqual([expect.objectContaining({ id: author.id, email: author.email })]);
    expect(saved.data.users[0]).not.toHaveProperty('password');
    expect(saved.data.post_revisions).toEqual([{ id: 'ffffffffffffffffffffff01', post_id: solo }]);

    const tag = await db.selectFrom('tags').selectAll().where('slug', '=', `hash-${author.slug}`).executeTakeFirstOrThrow();
    expect(tag).toMatchObject({ name: `#${author.slug}`, visibility: 'internal' });
    for (const postId of [solo, withOwner, ownerFirst]) {
      const authors = await db.selectFrom('posts_authors').select(['author_id', 'sort_order']).where('post_id', '=', postId).orderBy('sort_order').execute();
      expect(authors, postId).toEqual([{ author_id: '1', sort_order: 0 }]);
      const tags = await db.selectFrom('posts_tags').select('tag_id').where('post_id', '=', postId).execute();
      expect(tags).toEqual([{ tag_id: tag.id }]);
    }
    const revision = await db.selectFrom('post_revisions').select('author_id').where('id', '=', 'ffffffffffffffffffffff01').executeTakeFirstOrThrow();
    expect(revision.author_id).toBeNull();
    expect((await t.admin.get(`/users/${author.id}/`)).statusCode).toBe(404);
    expect((await t.admin.get('/users/', adminAuth(key))).statusCode).toBe(401);
  });

  it('never deletes the Owner; (Super) Editors delete only Authors, Contributors and themselves', async () => {
    const admin = await makeStaff(t, 'Administrator');
    const ownerRes = await t.admin.del('/users/1/', await t.session(admin));
    expectRefused(ownerRes, 403, 'delete user', { context: 'You do not have permission to destroy users' });
    const editor = await makeStaff(t, 'Editor');
    const headers = await t.session(editor);
    const other = await makeStaff(t, 'Administrator');
    expect((await t.admin.del(`/users/${other.id}/`, headers)).statusCode).toBe(403);
    const contributor = await makeStaff(t, 'Contributor');
    expect((await t.admin.del(`/users/${contributor.id}/`, headers)).statusCode).toBe(200);
    expect((await t.admin.del(`/users/${editor.id}/`, headers)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await t.admin.del('/users/aaaaaaaaaaaaaaaaaaaaaaaa/');
    expectRefused(res, 404, 'delete user', { context: 'User not found' });
  });
});

describe('PUT /users/password/', () => {
  const change = (body: object, headers: Record<string, string>) => t.admin.put('/users/password/', body, headers);

  it('changes your own password with the old one and ends your other sessions', async () => {
    const author = await makeStaff(t, 'Author');
    const headers = await t.session(author);
    const other = await t.session(author);
    const res = await change(
      { password: [{ user_id: author.id, oldPassword: STAFF_PASSWORD, newPassword: 'Brand-new-pass-9', ne2Password: 'Brand-new-pass-9' }] },
      headers,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ password: [{ message: 'Password changed successfully.' }] });
    expect((await t.admin.get('/users/me/', headers)).statusCode).toBe(200);
    expect((await t.admin.get('/users/me/', other)).statusCode).toBe(403);
    expect((await loginAs(t.app, author.email, 'Brand-new-pass-9')).length).toBeGreaterThan(10);
  });

  it("answers Ghost's errors, unrewritten", async () => {
    const author = await makeStaff(t, 'Author');
    const headers = await t.session(author);
    const cases: [object, number, string, Record<string, unknown>?][] = [
      [{ foo: 1 }, 400, "No root key ('password') provided."],
      [{ password: [{ user_id: author.id, oldPassword: STAFF_PASSWORD }] }, 422, 'Validation (FieldIsRequired) failed for ["newPassword","ne2Password"]'],
      [
        { password: [{ user_id: author.id, oldPassword: STAFF_PASSWORD, newPassword: 'Another-secret-1', ne2Password: 'Another-secret-2' }] },
        422,
        'Your new passwords do not match',
      ],
      [
        { password: [{ user_id: author.id, newPassword: 'Another-secret-1', ne2Password: 'Another-secret-1' }] },
        422,
        'Password is required for this operation',
      ],
      [
        { password: [{ user_id: author.id, oldPassword: 'wrong', newPassword: 'Another-secret-1', ne2Password: 'Another-secret-1' }] },
        422,
        'Your password is incorrect.',
        { code: 'PASSWORD_INCORRECT' },
      ],
      [
        { password: [{ user_id: author.id, oldPassword: STAFF_PASSWORD, newPassword: 'short', ne2Password: 'short' }] },
        422,
        'Your password must be at least 10 characters long.',
      ],
      [{ password: [{ user_id: '1', newPassword: 'Another-secret-1', ne2Password: 'Another-secret-1' }] }, 403, 'You do not have permission to edit user'],
      [{ password: [{ user_id: 'aaaaaaaaaaaaaaaaaaaaaaaa', newPassword: 'Another-secret-1', ne2Password: 'Another-secret-1' }] }, 404, 'User not found'],
    ];
    for (const [body, status, message, extra] of cases) {
      const res = await change(body, headers);
      expect(res.statusCode, message).toBe(status);
      expect(ghostError(res)).toMatchObject({ message, context: extra?.code ? 'Your password is incorrect.' : null, ...extra });
    }
  });
});

describe('PUT /users/owner/', () => {
  it('needs the owner root key', async () => {
    const res = await t.admin.put('/users/owner/', { users: [{ id: '1' }] });
    expectGhostError(res, { status: 400, type: 'BadRequestError', message: "No root key ('owner') provided." });
  });

  it('makes an active Administrator the Owner and the Owner an Administrator', async () => {
    await withTestSite(async (t2) => {
      const headers = t2.owner;
      const editor = await makeStaff(t2, 'Editor');
      const admin = await makeStaff(t2, 'Administrator');
      const transfer = (id: string, h = headers) => t2.admin.put('/users/owner/', { owner: [{ id }] }, h);
      expect(ghostError(await transfer(editor.id))).toMatchObject({ type: 'ValidationError', message: 'Only administrators can be assigned the owner role.' });
      expect(ghostError(await transfer('aaaaaaaaaaaaaaaaaaaaaaaa'))).toMatchObject({ type: 'NotFoundError', message: 'User not found' });
      const adminHeaders = await t2.session(admin);
      expect(ghostError(await transfer(admin.id, adminHeaders))).toMatchObject({
        type: 'NoPermissionError',
        message: 'You do not have permission to perform this action',
      });

      const res = await transfer(admin.id);
      expect(res.statusCode).toBe(200);
      expect(res.json().users.map((u: { id: string; roles: { name: string }[] }) => [u.id, u.roles[0]!.name])).toEqual([
        ['1', 'Administrator'],
        [admin.id, 'Owner'],
      ]);
      const keys = Object.keys(res.json().users[0]);
      expect(keys.slice(keys.indexOf('status'), keys.indexOf('status') + 4)).toEqual(['status', 'locale', 'visibility', 'meta_title']);
      expect(keys.at(-1)).toBe('roles');
      expect(keys).not.toContain('url');
      // The new Owner can now do Owner things; the site stays set up.
      expect((await t2.admin.get('/authentication/setup/', NOBODY)).json()).toEqual({ setup: [{ status: true }] });
      expect((await t2.admin.put('/users/1/', { users: [{ bio: 'now an admin' }] }, adminHeaders)).statusCode).toBe(200);
      const suspended = await makeStaff(t2, 'Administrator');
      await t2.connection.db.updateTable('users').set({ status: 'inactive' }).where('id', '=', suspended.id).execute();
      expect(ghostError(await transfer(suspended.id, adminHeaders))).toMatchObject({ message: 'Only active administrators can be assigned the owner role.' });
    });
  });
});
