import { describe, expect, it } from 'vitest';
import { ghostError, OWNER, countRows } from '../../../test/support.js';
import { first } from '../../../test/posts-support.js';
import { makeStaff } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';
import { objectId } from '../../db/ids.js';

const t = useTestSite({ caller: 'integration' });
const UNKNOWN = '6b01a0b05973b53791bbe3ff';

const addNewsletter = (newsletter: Record<string, unknown>, query = '') => t.admin.post(`/newsletters/${query}`, { newsletters: [newsletter] });
const newsletterCount = () => countRows(t, 'newsletters');
const slugs = (body: { newsletters: { slug: string }[] }) => body.newsletters.map((n) => n.slug);

/** A member subscribed to `newsletterId`, written directly: the members API comes later. */
async function subscribedMember(newsletterId: string, emailDisabled = false) {
  const id = objectId();
  const at = new Date();
  await t.db
    .insertInto('members')
    .values({
      id,
      uuid: crypto.randomUUID(),
      transient_id: objectId(),
      email: `${id}@example.com`,
      status: 'free',
      name: null,
      expertise: null,
      note: null,
      geolocation: null,
      enable_comment_notifications: true,
      email_count: 0,
      email_opened_count: 0,
      email_open_rate: null,
      email_disabled: emailDisabled,
      last_seen_at: null,
      last_commented_at: null,
      created_at: at,
      created_by: '1',
      updated_at: at,
      updated_by: '1',
    })
    .execute();
  await t.db.insertInto('members_newsletters').values({ id: objectId(), member_id: id, newsletter_id: newsletterId }).execute();
}

describe('Admin newsletters', () => {
  it('a new site has the default newsletter, named after the site', async () => {
    const res = await t.admin.get('/newsletters/');
    expect(res.statusCode).toBe(200);
    const [newsletter] = res.json().newsletters;
    expect(newsletter).toMatchObject({ name: OWNER.blogTitle, slug: 'default-newsletter', status: 'active', sort_order: 0, show_header_name: false });
    expect(Object.keys(newsletter)).toHaveLength(42);
    expect(Object.keys(newsletter).slice(0, 6)).toEqual(['id', 'uuid', 'name', 'description', 'feedback_enabled', 'slug']);
    expect(res.json().meta.pagination).toMatchObject({ page: 1, limit: 15, total: 1 });
  });

  it("adds a newsletter with Ghost's defaults, the next sort order, Location and a cache purge", async () => {
    const res = await addNewsletter({ name: '  Weekly ', sender_email: 'editor@example.com', sender_reply_to: 'support', sort_order: 9, uuid: 'mine', foo: 1 });
    expect(res.statusCode).toBe(201);
    const newsletter = first(res, 'newsletters');
    expect(res.headers.location).toBe(`http://localhost:80/ghost/api/admin/newsletters/${newsletter.id}/`);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(res.json()).not.toHaveProperty('meta');
    expect(newsletter).toMatchObject({
      name: 'Weekly',
      slug: 'weekly',
      sender_email: 'editor@example.com',
      sender_reply_to: 'support',
      status: 'active',
      visibility: 'members',
      subscribe_on_signup: true,
      sort_order: 1,
      show_header_name: true,
      show_excerpt: false,
      title_font_category: 'sans_serif',
      background_color: 'light',
      header_background_color: 'transparent',
      button_color: 'accent',
      link_color: 'accent',
      feedback_enabled: false,
    });
    expect(newsletter.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(first(await t.admin.get(`/newsletters/${newsletter.id}/`), 'newsletters')).toEqual(newsletter);
  });

  it('opt_in_existing subscribes members of active newsletters and counts them', async () => {
    const defaultId = (await t.db.selectFrom('newsletters').select('id').where('slug', '=', 'default-newsletter').executeTakeFirstOrThrow()).id;
    await subscribedMember(defaultId);
    await subscribedMember(defaultId, true);
    const res = await addNewsletter({ name: 'Daily', slug: 'Every Day' }, '?opt_in_existing=true&include=count.members,count.active_members');
    expect(res.statusCode).toBe(201);
    expect(res.json().meta).toEqual({ opted_in_member_count: 2 });
    expect(first(res, 'newsletters')).toMatchObject({ slug: 'every-day', sort_order: 2, count: { members: 2, active_members: 1 } });
  });

  it('browses in sort order with counts and filters; the Content API lists active newsletters only', async () => {
    const archived = first(await addNewsletter({ name: 'Old news', status: 'archived' }), 'newsletters');
    expect(archived.status).toBe('archived');
    const body = (await t.admin.get('/newsletters/?include=count.posts,count.members')).json();
    expect(slugs(body)).toEqual(['default-newsletter', 'weekly', 'every-day', 'old-news']);
    expect(body.newsletters[0].count).toEqual({ posts: 0, members: 2 });
    expect(slugs((await t.admin.get('/newsletters/?filter=status:archived')).json())).toEqual(['old-news']);

    const content = await t.content.get('/newsletters/');
    expect(content.statusCode).toBe(200);
    expect(slugs(content.json())).toEqual(['default-newsletter', 'weekly', 'every-day']);
    expect(Object.keys(content.json().newsletters[0])).toEqual([
      'id',
      'uuid',
      'name',
      'description',
      'slug',
      'sender_email',
      'subscribe_on_signup',
      'visibility',
      'sort_order',
      'created_at',
      'updated_at',
    ]);
    expect(slugs((await t.content.get('/newsletters/?filter=status:archived')).json())).toEqual(['default-newsletter', 'weekly', 'every-day']);
  });

  it('edits a newsletter with a cache purge; header images are stored site-relative', async () => {
    const newsletter = first(await addNewsletter({ name: 'Editable' }), 'newsletters');
    const res = await t.admin.put(`/newsletters/${newsletter.id}/`, {
      newsletters: [{ name: 'Edited', sort_order: 7, header_image: 'http://127.0.0.1:2368/content/images/h.png', show_badge: false, title_alignment: 'left' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(first(res, 'newsletters')).toMatchObject({
      name: 'Edited',
      slug: 'editable',
      sort_order: 7,
      show_badge: false,
      title_alignment: 'left',
      header_image: 'http://127.0.0.1:2368/content/images/h.png',
    });
    const stored = await t.db.selectFrom('newsletters').select('header_image').where('id', '=', newsletter.id).executeTakeFirstOrThrow();
    expect(stored.header_image).toBe('__GHOST_URL__/content/images/h.png');
  });
});

describe('Admin newsletters: validation', () => {
  const cases: [string, unknown, number, string][] = [
    ['no root key', {}, 400, "No root key ('newsletters') provided."],
    ['an empty item', { newsletters: [{}] }, 400, "No root key ('newsletters') provided."],
    ['no name', { newsletters: [{ description: 'x' }] }, 422, 'Value in [newsletters.name] cannot be blank.'],
    ['a taken name', { newsletters: [{ name: 'weekly' }] }, 422, 'A newsletter with the same name already exists'],
    ['an unknown status', { newsletters: [{ name: 'N1', status: 'bad' }] }, 422, 'Validation (isIn) failed for status'],
    ['a non-boolean flag', { newsletters: [{ name: 'N2', show_badge: 'yes' }] }, 422, 'Value in [newsletters.show_badge] must be one of true, false, 0 or 1.'],
    ['an invalid sender', { newsletters: [{ name: 'N3', sender_email: 'nope' }] }, 422, 'You cannot set the sender email address to nope'],
    ['an invalid reply-to', { newsletters: [{ name: 'N4', sender_reply_to: 'bad' }] }, 422, 'You cannot set the reply-to email address to bad'],
    ['an unknown alignment', { newsletters: [{ name: 'N5', title_alignment: 'right' }] }, 422, 'Validation (isIn) failed for title_alignment'],
    ['a long colour', { newsletters: [{ name: 'N6', background_color: 'x'.repeat(51) }] }, 422, 'exceeds maximum length of 50 characters'],
  ];
  it.each(cases)('add with %s → %d, nothing written', async (_label, body, status, context) => {
    const before = await newsletterCount();
    const res = await t.admin.post('/newsletters/', body);
    expect(res.statusCode).toBe(status);
    expect(ghostError(res).message).toMatch(/cannot save newsletter\.$/);
    expect(ghostError(res).context).toContain(context);
    expect(await newsletterCount()).toBe(before);
  });

  it('edit: a taken name, a bad sort order', async () => {
    const newsletter = first(await addNewsletter({ name: 'Second' }), 'newsletters');
    expect(ghostError(await t.admin.put(`/newsletters/${newsletter.id}/`, { newsletters: [{ name: 'Weekly' }] }))).toMatchObject({
      message: 'Validation error, cannot edit newsletter.',
      context: 'A newsletter with the same name already exists',
      property: 'name',
    });
    expect(ghostError(await t.admin.put(`/newsletters/${newsletter.id}/`, { newsletters: [{ sort_order: 'abc' }] })).context).toContain(
      'Value in [newsletters.sort_order] is not an integer.',
    );
  });
});

describe('Admin newsletters: not found and permissions', () => {
  it('unknown ids → 404 with Ghost’s messages', async () => {
    expect(ghostError(await t.admin.get(`/newsletters/${UNKNOWN}/`))).toMatchObject({
      type: 'NotFoundError',
      message: 'Resource not found error, cannot read newsletter.',
      context: 'Newsletter not found.',
    });
    expect(ghostError(await t.admin.put(`/newsletters/${UNKNOWN}/`, { newsletters: [{ name: 'x' }] }))).toMatchObject({
      type: 'NotFoundError',
      message: 'Resource not found error, cannot edit newsletter.',
      context: 'Resource could not be found.',
    });
  });

  it('Authors may read newsletters but not add them; Contributors may not read them', async () => {
    const author = await t.session(await makeStaff(t, 'Author'));
    expect((await t.admin.get('/newsletters/', author)).statusCode).toBe(200);
    expect(ghostError(await t.admin.post('/newsletters/', { newsletters: [{ name: 'Nope' }] }, author))).toMatchObject({
      type: 'NoPermissionError',
      message: 'Permission error, cannot save newsletter.',
    });
    const contributor = await t.session(await makeStaff(t, 'Contributor'));
    expect((await t.admin.get('/newsletters/', contributor)).statusCode).toBe(403);
  });
});
