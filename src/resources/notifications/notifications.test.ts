import { describe, expect, it } from 'vitest';
import { ADMIN, expectGhostError, expectRefused } from '../../../test/support.js';
import { makeStaff } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite();

const add = (...notifications: unknown[]) => t.admin.post('/notifications/', { notifications });

describe('notifications', () => {
  it('starts empty, adds with Ghost’s defaults and shows fields as sent', async () => {
    expect((await t.admin.get('/notifications/')).json()).toEqual({ notifications: [] });
    const res = await add({ type: 'info', message: 'Hello <b>there</b>', custom: true });
    expect(res.statusCode).toBe(201);
    const [added] = res.json().notifications;
    expect(added).toEqual({
      dismissible: true,
      location: 'bottom',
      status: 'alert',
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: 'info',
      message: 'Hello <b>there</b>',
      custom: true,
    });
    expect(Object.keys(added)).toEqual(['dismissible', 'location', 'status', 'id', 'type', 'message', 'custom']);
    expect(res.headers.location).toBe(`http://localhost:80${ADMIN}/notifications/${added.id}/`);
    expect((await t.admin.get('/notifications/')).json().notifications).toEqual([added]);
  });

  it('skips known ids (200 and an empty list) and refuses a body without notifications', async () => {
    expect((await add({ id: 'sticky', message: 'Sticky', dismissible: false, custom: true })).statusCode).toBe(201);
    const again = await add({ id: 'sticky', message: 'Again', custom: true });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ notifications: [] });
    const empty = await t.admin.post('/notifications/', { notifications: [] });
    expectRefused(empty, 400, 'save notification', { context: "No root key ('notifications') provided." });
  });

  it('keeps one release notification: a new one replaces the old', async () => {
    await add({ id: 'release-1', message: 'Version 5.131.0 is out' });
    await add({ id: 'release-2', message: 'Version 5.132.0 is out' });
    const ids = (await t.admin.get('/notifications/')).json().notifications.map((n: { id: string }) => n.id);
    expect(ids).toContain('release-2');
    expect(ids).not.toContain('release-1');
  });

  it('dismisses for the caller only; refuses non-dismissible ones (403) and unknown ids (404)', async () => {
    const id = (await add({ message: 'Dismiss me', custom: true })).json().notifications[0].id;
    expect((await t.admin.del(`/notifications/${id}/`)).statusCode).toBe(204);
    expect((await t.admin.del(`/notifications/${id}/`)).statusCode).toBe(204);
    expect((await t.admin.get('/notifications/')).json().notifications.some((n: { id: string }) => n.id === id)).toBe(false);
    const editor = await makeStaff(t, 'Editor');
    const asEditor = await t.session(editor);
    expect((await t.admin.get('/notifications/', asEditor)).json().notifications.some((n: { id: string }) => n.id === id)).toBe(true);

    const sticky = await t.admin.del('/notifications/sticky/');
    expectGhostError(sticky, {
      status: 403,
      message: 'Permission error, cannot delete notification.',
      context: 'You do not have permission to dismiss this notification.',
    });
    const missing = await t.admin.del('/notifications/nope/');
    expectGhostError(missing, { status: 404, message: 'Resource not found error, cannot delete notification.', context: 'Notification does not exist.' });
  });

  it('is refused to Authors and to integrations', async () => {
    const author = await makeStaff(t, 'Author');
    const res = await t.admin.get('/notifications/', await t.session(author));
    expect(res.statusCode).toBe(403);
    expect((await t.admin.get('/notifications/', t.integration())).statusCode).toBe(501);
  });
});
