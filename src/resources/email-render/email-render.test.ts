import { describe, expect, it, beforeAll } from 'vitest';
import { SITE_URL, expectGhostError } from '../../../test/support.js';
import { lexicalOf, makeMember, makePost } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';
import { EMAIL_POST } from '../../../test/email/email-support.js';
import { ctxBaseFromConfig } from '../../ctx-base.js';
import { jobCtx } from '../../ctx.js';
import { objectId, uuid } from '../../db/ids.js';
import type { NewsletterRow, PostRow } from '../../db/schema.js';
import { personaliseEmail, recordEmailLinks, renderPostEmail, type RecipientContext } from './email-render.js';

/**
 * The mail itself, as the sender uses it: rendered once per segment, personalised per recipient, and its links
 * tracked through `/r/` redirects that record clicks.
 */
const t = useTestSite();
let paidPost: PostRow;
let newsletter: NewsletterRow;

const ctx = () => jobCtx(ctxBaseFromConfig(t.config, t.connection, console, { clock: t.clock }));
const render = (post: PostRow, segment: string | null) => renderPostEmail(t.db, post, newsletter, segment, { siteUrl: SITE_URL });
const recipient = (fields: Partial<RecipientContext> = {}): RecipientContext => ({
  recipientId: objectId(),
  memberUuid: 'a6f5c0de-0000-4000-8000-000000000001',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  status: 'free',
  createdAt: new Date('2026-03-04T23:30:00.000Z'),
  unsubscribeUrl: `${SITE_URL}unsubscribe/?uuid=a6f5c0de-0000-4000-8000-000000000001&key=${'ab'.repeat(32)}&newsletter=n`,
  openPixelUrl: null,
  ...fields,
});

beforeAll(async () => {
  const created = await t.admin.post('/posts/', { posts: [EMAIL_POST] });
  paidPost = await t.db.selectFrom('posts').selectAll().where('id', '=', created.json().posts[0].id).executeTakeFirstOrThrow();
  newsletter = await t.db.selectFrom('newsletters').selectAll().orderBy('sort_order').executeTakeFirstOrThrow();
});

describe('renderPostEmail', () => {
  it('names the segments a post differs by, and renders each with the tokens left for each recipient', async () => {
    const plainId = await makePost(t, { title: 'Plain', lexical: lexicalOf('Nothing members-only here.') });
    const plain = await t.db.selectFrom('posts').selectAll().where('id', '=', plainId).executeTakeFirstOrThrow();
    expect((await render(plain, null)).segments).toEqual([]);

    const free = await render(paidPost, 'status:free');
    expect(free.segments).toEqual(['status:free', 'status:-free']);
    expect(free.subject).toBe('Issue one');
    expect(free.html).toContain('%%{first_name, &quot;there&quot;}%%');
    expect(free.html).toContain('href="%%{unsubscribe_url}%%"');
    expect(free.html).toContain('Upgrade to continue reading.');
    expect(free.html).not.toContain('Members-only paragraph');
    const paid = await render(paidPost, 'status:-free');
    expect(paid.html).toContain('Members-only paragraph after the paywall.');
    expect(paid.plaintext).toContain('Members-only paragraph after the paywall.');
    expect(paid.html).not.toContain('Upgrade to continue reading.');
  });

  it('takes the subject from email_subject, else the title', async () => {
    const id = await makePost(t, { title: 'Only a title' });
    const post = await t.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect((await render(post, null)).subject).toBe('Only a title');
  });
});

describe('personaliseEmail', () => {
  it("fills Ghost's replacements for each recipient, with fallbacks, and adds the open pixel at the end of the body", async () => {
    const email = await render(paidPost, 'status:free');
    const ada = personaliseEmail(email, recipient({ openPixelUrl: `${SITE_URL}email/open/x?a=1&b=2` }));
    expect(ada.html).toContain('Hi Ada, welcome to this issue.');
    expect(ada.plaintext).toContain('Hi Ada, welcome to this issue.');
    expect(ada.html).toContain(`href="${SITE_URL}unsubscribe/?uuid=a6f5c0de-0000-4000-8000-000000000001&key=`);
    expect(ada.html).not.toContain('%%{');
    expect(ada.html).toMatch(/<img width="1" height="1" alt="" src="http:\/\/127\.0\.0\.1:2368\/email\/open\/x\?a=1&amp;b=2"><\/body>/);

    const nameless = personaliseEmail(email, recipient({ name: null }));
    expect(nameless.html).toContain('Hi there, welcome to this issue.');
    expect(nameless.html).not.toContain('<img width="1"');
  });

  it('prints subscription details with the member since date in the site timezone, the key of the unsubscribe link and the status', async () => {
    await t.admin.put('/settings/', { settings: [{ key: 'timezone', value: 'Europe/Berlin' }] });
    const details = { ...newsletter, show_subscription_details: true, feedback_enabled: true };
    const email = await renderPostEmail(t.db, paidPost, details, 'status:-free', { siteUrl: SITE_URL });
    const copy = personaliseEmail(email, recipient({ status: 'comped' }));
    expect(copy.html).toContain('Member since: 5 March 2026');
    expect(copy.html).toMatch(/<strong[^>]*>complimentary subscriber<\/strong>/);
    expect(copy.html).toContain('Name: Ada Lovelace');
    expect(copy.html).toContain(`?uuid=a6f5c0de-0000-4000-8000-000000000001&key=${'ab'.repeat(32)}`);
    expect(copy.html).toContain(`href="${SITE_URL}#/portal/account"`);
    const nameless = personaliseEmail(email, recipient({ name: null }));
    expect(nameless.html).toContain('Name: not provided');
    expect(nameless.html).toMatch(/<p class="hidden"[^>]*>Name: not provided/);
    await t.admin.put('/settings/', { settings: [{ key: 'timezone', value: 'Etc/UTC' }] });
  });
});

describe('click tracking', () => {
  it('sends links through /r/ redirects that record the click, update last_seen_at, and show in GET /links/', async () => {
    await t.admin.put('/settings/', { settings: [{ key: 'outbound_link_tagging', value: 'true' }] });
    const memberId = await makeMember(t, { email: 'clicker@example.com', name: 'Clicker' });
    const member = await t.db.selectFrom('members').select(['uuid', 'last_seen_at']).where('id', '=', memberId).executeTakeFirstOrThrow();
    expect(member.last_seen_at).toBeNull();
    const emailId = objectId();
    const now = new Date();
    await t.db
      .insertInto('emails')
      .values({
        id: emailId,
        post_id: paidPost.id,
        uuid: uuid(),
        status: 'submitting',
        recipient_filter: 'all',
        error: null,
        error_data: null,
        email_count: 1,
        delivered_count: 0,
        opened_count: 0,
        failed_count: 0,
        subject: 'Issue one',
        from: 'x@example.com',
        reply_to: null,
        html: null,
        plaintext: null,
        source: paidPost.lexical,
        source_type: 'lexical',
        track_opens: false,
        track_clicks: true,
        feedback_enabled: false,
        submitted_at: now,
        newsletter_id: newsletter.id,
        created_at: now,
        created_by: '1',
        updated_at: now,
        updated_by: '1',
      })
      .execute();

    const email = await render(paidPost, 'status:-free');
    const tracked = await ctx().write((w) => recordEmailLinks(w, emailId, email.html));
    expect(tracked).not.toContain('href="https://example.com/docs"');
    // The unsubscribe link and Ghost's badge are never tracked.
    expect(tracked).toContain('href="%%{unsubscribe_url}%%"');
    expect(tracked).toContain('href="https://ghost.org/?via=pbg-newsletter"');
    const copy = personaliseEmail({ ...email, html: tracked }, recipient({ memberUuid: member.uuid! }));
    const docs = new RegExp(`href="${SITE_URL}r/([0-9a-f]{8})\\?m=${member.uuid}"[^>]*>the docs<`).exec(copy.html);
    expect(docs).not.toBeNull();

    const followed = await t.app.inject({ url: `/r/${docs![1]}?m=${member.uuid}` });
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe('https://example.com/docs?ref=127.0.0.1');
    expect(followed.headers['x-robots-tag']).toBe('noindex, nofollow');
    const clicks = await t.db.selectFrom('members_click_events').select(['member_id']).execute();
    expect(clicks).toEqual([{ member_id: memberId }]);
    const seen = await t.db.selectFrom('members').select('last_seen_at').where('id', '=', memberId).executeTakeFirstOrThrow();
    expect(seen.last_seen_at).not.toBeNull();

    // A visit without a member (a forwarded copy) redirects without recording anything.
    expect((await t.app.inject({ url: `/r/${docs![1]}` })).statusCode).toBe(302);
    expect(await t.db.selectFrom('members_click_events').select('id').execute()).toHaveLength(1);
    // An unknown slug is the site's: its trailing-slash redirect, then its 404.
    expect((await t.app.inject({ url: '/r/00000000/' })).statusCode).toBe(404);

    const links = await t.admin.get(`/links/?filter=${encodeURIComponent(`post_id:'${paidPost.id}'`)}`);
    expect(links.statusCode).toBe(200);
    const body = links.json();
    expect(body.links[0]).toEqual({
      post_id: paidPost.id,
      link: { link_id: expect.any(String), from: `${SITE_URL}r/${docs![1]}`, to: 'https://example.com/docs?ref=127.0.0.1', edited: false },
      count: { clicks: 1 },
    });
    expect(body.meta.pagination).toEqual({ total: body.links.length, page: 1, pages: 1 });
    const site = body.links.find((link: { link: { to: string } }) => link.link.to.startsWith(`${SITE_URL}about/`));
    // Site links carry the newsletter's name as ref (Ghost slugifies it and adds `-newsletter`) and the post.
    expect(newsletter.name).toBe('Test Site');
    expect(site.link.to).toBe(`${SITE_URL}about/?ref=test-site-newsletter&attribution_id=${paidPost.id}&attribution_type=post`);

    // The admin app's "edit link": every redirect of that post and URL points at the new one, keeping its ref.
    const filter = encodeURIComponent(`post_id:'${paidPost.id}'+to:'https://example.com/docs?ref=127.0.0.1'`);
    const edited = await t.admin.put(`/links/bulk/?filter=${filter}`, { bulk: { action: 'updateLink', meta: { link: { to: 'https://example.com/guide' } } } });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().bulk.meta.stats).toEqual({ successful: 1, unsuccessful: 0 });
    expect((await t.app.inject({ url: `/r/${docs![1]}` })).headers.location).toBe('https://example.com/guide?ref=127.0.0.1');
    expectGhostError(await t.admin.put('/links/bulk/?filter=nonsense', { bulk: { action: 'updateLink', meta: { link: { to: 'https://x.example/' } } } }), {
      status: 400,
      type: 'BadRequestError',
      message: 'Invalid filter value received',
    });
    await t.admin.put('/settings/', { settings: [{ key: 'outbound_link_tagging', value: 'false' }] });
  });
});
