import { describe, expect, it } from 'vitest';
import { ADMIN, ORIGIN, OWNER, ghostError, expectGhostError, expectRefused } from '../../../test/support.js';
import { makeStaff } from '../../../test/factories.js';
import { appRefusingMail, lastMailTo, loginAs } from '../../../test/staff-support.js';
import { useTestSite, type Caller } from '../../../test/test-site.js';
import type { RoleName } from '../../auth/roles.js';

const t = useTestSite();

const invite = (email: string, role: RoleName, as?: Caller) => t.admin.post('/invites/', { invites: [{ email, role_id: t.roleId(role) }] }, as);

describe('POST /invites/', () => {
  it('creates a sent invitation, mails the link and never shows the token', async () => {
    const res = await invite('new.person@example.com', 'Author');
    expect(res.statusCode).toBe(201);
    const [created] = res.json().invites;
    expect(Object.keys(created)).toEqual(['id', 'role_id', 'status', 'email', 'expires', 'created_at', 'updated_at']);
    expect(created).toMatchObject({ role_id: t.roleId('Author'), status: 'sent', email: 'new.person@example.com' });
    expect(created.expires - Date.now()).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
    expect(res.headers.location).toBe(`http://localhost:80${ADMIN}/invites/${created.id}/`);
    const mail = (await lastMailTo(t, 'new.person@example.com'))!;
    expect(mail.subject).toBe(`${OWNER.name} has invited you to join ${OWNER.blogTitle}`);
    expect(mail.replyTo).toBe(OWNER.email);
    expect(mail.text).toMatch(/http:\/\/127\.0\.0\.1:2368\/ghost\/signup\/[A-Za-z0-9_-]+\//);
  });

  it('replaces an earlier invitation to the same address', async () => {
    const first = (await invite('again@example.com', 'Author')).json().invites[0];
    const second = (await invite('again@example.com', 'Editor')).json().invites[0];
    const list = (await t.admin.get('/invites/?limit=all')).json().invites;
    expect(list.map((i: { id: string }) => i.id)).toContain(second.id);
    expect(list.map((i: { id: string }) => i.id)).not.toContain(first.id);
  });

  it('lets an integration invite (mail from nobody in particular), but not Administrators', async () => {
    const res = await invite('from-api@example.com', 'Editor', t.integration());
    expect(res.statusCode).toBe(201);
    expect((await lastMailTo(t, 'from-api@example.com'))!.subject).toBe(`You have been invited to join ${OWNER.blogTitle}`);
    const refused = await invite('admin-from-api@example.com', 'Administrator', t.integration());
    expectRefused(refused, 403, 'save invite', { context: 'You do not have permission to add invites' });
  });

  it('applies the role rules: nobody invites an Owner, Editors only Authors and Contributors', async () => {
    const editor = { cookie: await loginAs(t.app, (await makeStaff(t, 'Editor')).email), origin: ORIGIN };
    for (const [role, headers] of [
      ['Owner', t.owner],
      ['Administrator', editor],
      ['Editor', editor],
    ] as const) {
      const res = await invite(`${role.toLowerCase()}-x@example.com`, role, headers);
      expect(res.statusCode, role).toBe(403);
      expect(ghostError(res)).toMatchObject({
        type: 'NoPermissionError',
        message: 'Permission error, cannot save invite.',
        context: 'You do not have permission to add invites',
      });
    }
    expect((await invite('contrib-x@example.com', 'Contributor', editor)).statusCode).toBe(201);
  });

  it.each([
    [{ invitez: [] }, 400, 'BadRequestError', "No root key ('invites') provided."],
    [{ invites: [{ role_id: 'x' }] }, 422, 'ValidationError', 'Validation (FieldIsRequired) failed for ["email"]'],
    [{ invites: [{ email: 'a@example.com' }] }, 422, 'ValidationError', 'Validation (FieldIsRequired) failed for ["role_id"]'],
    [{ invites: [{ email: OWNER.email.toUpperCase(), role_id: 'AUTHOR' }] }, 422, 'ValidationError', 'User is already registered.'],
    [{ invites: [{ email: 'b@example.com', role_id: 'aaaaaaaaaaaaaaaaaaaaaaaa' }] }, 404, 'NotFoundError', 'Role not found'],
    [{ invites: [{ email: 'nope', role_id: 'AUTHOR' }] }, 422, 'ValidationError', 'Validation (isEmail) failed for email invites.email'],
  ])('refuses %j', async (body, status, type, context) => {
    const payload = JSON.parse(JSON.stringify(body).replace('"AUTHOR"', JSON.stringify(t.roleId('Author'))));
    const res = await t.admin.post('/invites/', payload);
    expect(res.statusCode).toBe(status);
    expect(ghostError(res)).toMatchObject({ type, context });
  });

  it('answers EmailError when the mail is refused, and stores nothing', async () => {
    const failing = await appRefusingMail(t, 'Sending failed');
    try {
      const res = await failing.inject({
        method: 'POST',
        url: `${ADMIN}/invites/`,
        headers: t.owner,
        payload: { invites: [{ email: 'unlucky@example.com', role_id: t.roleId('Author') }] },
      });
      expectGhostError(res, {
        status: 500,
        type: 'EmailError',
        message: 'Error sending email!',
        context: 'Error sending email: Failed to send email. Reason: Sending failed. Please check your email settings and resend the invitation.',
      });
      const stored = await t.connection.db.selectFrom('invites').select('id').where('email', '=', 'unlucky@example.com').execute();
      expect(stored).toEqual([]);
    } finally {
      await failing.close();
    }
  });
});

describe('GET and DELETE /invites/', () => {
  it('browses with pagination, reads one and deletes it', async () => {
    const created = (await invite('browse@example.com', 'Contributor')).json().invites[0];
    const list = await t.admin.get('/invites/?limit=2');
    expect(list.statusCode).toBe(200);
    expect(list.json().meta.pagination).toMatchObject({ page: 1, limit: 2 });
    const read = await t.admin.get(`/invites/${created.id}/`);
    expect(read.json().invites[0]).toEqual(created);
    const del = await t.admin.del(`/invites/${created.id}/`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const again = await t.admin.get(`/invites/${created.id}/`);
    expectRefused(again, 404, 'read invite', { context: 'Invite not found.' });
    const delAgain = await t.admin.del(`/invites/${created.id}/`);
    expect(ghostError(delAgain)).toMatchObject({
      type: 'NotFoundError',
      message: 'Resource not found error, cannot delete invite.',
      context: 'Resource could not be found.',
    });
  });

  it('filters, orders and restricts fields with the browse machinery; the token cannot be probed', async () => {
    await invite('filter-a@example.com', 'Author');
    await invite('filter-b@example.com', 'Editor');
    const byRole = await t.admin.get(`/invites/?filter=${encodeURIComponent(`role_id:'${t.roleId('Editor')}'+email:~'filter-'`)}`);
    expect(byRole.statusCode).toBe(200);
    expect(byRole.json().invites.map((i: { email: string }) => i.email)).toEqual(['filter-b@example.com']);
    const ordered = await t.admin.get(`/invites/?filter=email:~'filter-'&order=email%20desc&fields=email`);
    expect(ordered.json().invites).toEqual([{ email: 'filter-b@example.com' }, { email: 'filter-a@example.com' }]);
    const probe = await t.admin.get(`/invites/?filter=${encodeURIComponent("token_hash:'x'+email:~'filter-'")}`);
    expect(probe.json().invites).toHaveLength(2);
    const bad = await t.admin.get('/invites/?filter=email:(');
    expectRefused(bad, 400, 'list invites', { context: 'Error parsing filter' });
  });

  it('refuses Authors and integrations', async () => {
    const author = { cookie: await loginAs(t.app, (await makeStaff(t, 'Author')).email), origin: ORIGIN };
    const res = await t.admin.get('/invites/', author);
    expect(ghostError(res)).toMatchObject({
      type: 'NoPermissionError',
      message: 'Permission error, cannot list invites.',
      context: 'You do not have permission to browse invites',
    });
    const api = await t.admin.get('/invites/', t.integration());
    expect(api.statusCode).toBe(501);
  });
});
