import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectGhostError, SITE_URL, expectRefused } from '../../../test/support.js';
import { makeMember, makeStaff } from '../../../test/factories.js';
import { MailSink } from '../../../test/mail-support.js';
import { useTestSite } from '../../../test/test-site.js';
import { DESIGN, EMAIL_POST, PEER, markupOnly, normalise, textOnly } from '../../../test/email/email-support.js';

/**
 * Email previews and test sends, against Ghost's recorded previews of the same post (test/fixtures/email) and a
 * real SMTP server on loopback.
 */
const sink = new MailSink();
beforeAll(() => sink.start());
afterAll(() => sink.stop());
const t = useTestSite({ settings: () => ({ MAIL_SMTP_URL: sink.url, MAIL_FROM: 'news@quire.test' }) });

const UNKNOWN = '6b01a0b05973b53791bbe3ff';
let post: { id: string; uuid: string };
let newsletterUuid: string;

beforeAll(async () => {
  // The peer's site title, so the header and footer read the same.
  expect((await t.admin.put('/settings/', { settings: [{ key: 'title', value: 'Peer Site' }] })).statusCode).toBe(200);
  const created = await t.admin.post('/posts/', { posts: [EMAIL_POST] });
  expect(created.statusCode).toBe(201);
  post = created.json().posts[0];
  newsletterUuid = (await t.db.selectFrom('newsletters').select('uuid').orderBy('sort_order').executeTakeFirstOrThrow()).uuid;
});

const preview = (query = '', id = post.id) => t.admin.get(`/email_previews/posts/${id}/${query}`);
const ours = (text: string) => normalise(text, SITE_URL, post.uuid, newsletterUuid);
const peerNewsletterUuid = () => /newsletter=([0-9a-f-]{36})/.exec(PEER.previews.all.html)![1]!;
const theirs = (text: string) => normalise(text, PEER.site, PEER.post.uuid, peerNewsletterUuid());

describe('GET /email_previews/posts/:id/', () => {
  it("renders the post in Ghost's newsletter markup, segment by segment", async () => {
    for (const [segment, query] of [
      ['all', ''],
      ['status:free', '?memberSegment=status:free'],
      ['status:-free', '?memberSegment=status%3A-free'],
    ] as const) {
      const res = await preview(query);
      expect(res.statusCode).toBe(200);
      const got = res.json().email_previews[0];
      const want = PEER.previews[segment];
      expect(Object.keys(got)).toEqual(['subject', 'html', 'plaintext']);
      expect(got.subject).toBe(want.subject);
      // The stylesheet is ours (see the README): the markup, words and links are held to Ghost's.
      expect(markupOnly(ours(got.html))).toBe(markupOnly(theirs(want.html)));
      expect(textOnly(ours(got.plaintext))).toBe(textOnly(theirs(want.plaintext)));
    }
  });

  it('cuts a paid post at the paywall with the CTA for free members only, and keeps each segment its blocks', async () => {
    const free = (await preview('?memberSegment=status:free')).json().email_previews[0];
    expect(free.html).toContain('Upgrade to continue reading.');
    expect(free.html).toContain(`href="${SITE_URL}p/${post.uuid}/#/portal/signup"`);
    expect(free.html).not.toContain('Members-only paragraph');
    expect(free.html).toContain('Only free members see this in the email');
    expect(free.html).not.toContain('data-gh-segment');
    const paid = (await preview('?memberSegment=status:-free')).json().email_previews[0];
    expect(paid.html).toContain('Members-only paragraph after the paywall.');
    expect(paid.html).not.toContain('Upgrade to continue reading.');
    expect(paid.html).not.toContain('Only free members see this');
    // Without a segment (Ghost's admin preview) nothing is cut and segment blocks are dropped.
    const all = (await preview()).json().email_previews[0];
    expect(all.html).toContain('Members-only paragraph after the paywall.');
    expect(all.html).not.toContain('Only free members see this');
  });

  it("personalises the preview for Ghost's example member and inlines the styles", async () => {
    const got = (await preview()).json().email_previews[0];
    expect(got.html).toContain('Hi Jamie, welcome to this issue.');
    expect(got.plaintext).toContain('Hi Jamie, welcome to this issue.');
    expect(got.html).not.toContain('%%{');
    expect(got.html).toMatch(/<a href="https:\/\/example.com\/docs" style="[^"]+" target="_blank">/);
    expect(got.html).toContain(`${SITE_URL}unsubscribe/?uuid=example-uuid&key=`);
    expect(got.html).toContain(`&newsletter=${newsletterUuid}`);
  });

  it("follows the newsletter's design as Ghost: fonts, alignment, colours, header, feature image, footer, badge, details, feedback", async () => {
    const res = await t.admin.post('/newsletters/', { newsletters: [DESIGN.newsletter] });
    expect(res.statusCode).toBe(201);
    const designed = res.json().newsletters[0];
    const created = await t.admin.post('/posts/', { posts: [{ ...DESIGN.post, lexical: EMAIL_POST.lexical }] });
    expect(created.statusCode).toBe(201);
    const featured = created.json().posts[0];
    const got = (await preview(`?newsletter=${designed.slug}&memberSegment=status:free`, featured.id)).json().email_previews[0];
    const want = PEER.design.preview;
    const mine = (text: string) => normalise(text, SITE_URL, featured.uuid, designed.uuid);
    const peers = (text: string) => normalise(text, PEER.site, PEER.design.post.uuid, PEER.design.newsletterUuid);
    expect(got.subject).toBe(want.subject);
    expect(markupOnly(mine(got.html))).toBe(markupOnly(peers(want.html)));
    expect(textOnly(mine(got.plaintext))).toBe(textOnly(peers(want.plaintext)));
    expect(got.html).toContain('class="post-title post-title-with-excerpt post-title-serif post-title-left"');
    expect(got.html).toContain('src="https://images.unsplash.com/photo-1500000000000-feature?w=1200" width="600" alt="The alt text"');
    expect(got.html).not.toContain('Powered by Ghost');
  });

  it('answers 404 for an unknown post or newsletter, and 501 to integrations as Ghost', async () => {
    expectRefused(await preview('', UNKNOWN), 404, 'read email_preview', { context: 'Post not found.' });
    expectRefused(await preview('?newsletter=nope'), 404, 'read email_preview', { context: 'Resource could not be found.' });
    expectGhostError(await t.admin.get(`/email_previews/posts/${post.id}/`, t.integration()), { status: 501, type: 'NotImplementedError' });
    expectGhostError(await preview('', 'not-an-id'), { status: 422, type: 'ValidationError' });
  });

  it('lets every staff role preview, as Ghost', async () => {
    const contributor = await makeStaff(t, 'Contributor');
    expect((await t.admin.get(`/email_previews/posts/${post.id}/`, await t.session(contributor))).statusCode).toBe(200);
  });
});

describe('POST /email_previews/posts/:id/', () => {
  const send = (body: unknown, id = post.id, as?: Record<string, string>) => t.admin.post(`/email_previews/posts/${id}/`, body, as);
  const mailTo = async (address: string) => {
    for (let i = 0; i < 50 && !sink.received.some((mail) => mail.to.includes(address)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    return sink.received.filter((mail) => mail.to.includes(address)).pop()!;
  };

  it('sends one [TEST] copy through SMTP, from the newsletter, personalised for a member with that address', async () => {
    await makeMember(t, { email: 'ada@example.com', name: 'Ada Lovelace' });
    const res = await send({ emails: ['ada@example.com'], memberSegment: 'status:-free' });
    expect(res.statusCode).toBe(204);
    const mail = await mailTo('ada@example.com');
    expect(mail.subject).toBe('[TEST] Issue one');
    expect(mail.raw).toMatch(/^From: "?Peer Site"? <news@quire\.test>/m);
    expect(mail.text).toContain('Hi Ada, welcome to this issue.');
    expect(mail.text).toContain('Members-only paragraph after the paywall.');
    expect(mail.raw).toContain('Content-Type: text/html');

    expect((await send({ emails: ['nobody@example.com'], memberSegment: 'status:free' })).statusCode).toBe(204);
    const stranger = await mailTo('nobody@example.com');
    expect(stranger.text).toContain('Hi there, welcome to this issue.');
    expect(stranger.text).toContain('Upgrade to continue reading.');
  });

  it("refuses Ghost's invalid requests", async () => {
    expectGhostError(await send({ emails: [] }), { status: 422, type: 'ValidationError', message: 'No emails provided.' });
    expectGhostError(await send({}), { status: 422, type: 'ValidationError', message: 'No emails provided.' });
    expectGhostError(await send({ emails: ['a@example.com', 'b@example.com'] }), {
      status: 422,
      type: 'ValidationError',
      message: 'Too many emails provided. Maximum of 1 test email can be sent at once.',
    });
    expectGhostError(await send({ emails: ['a@example.com'] }, UNKNOWN), { status: 404, type: 'NotFoundError', message: 'Post not found.' });
    expectGhostError(await send({ emails: ['a@example.com'] }, post.id, t.integration()), { status: 501, type: 'NotImplementedError' });
    const author = await makeStaff(t, 'Author');
    expectGhostError(await send({ emails: ['a@example.com'] }, post.id, await t.session(author)), { status: 403, type: 'NoPermissionError' });
  });

  // Last: it spends this address's test sends for the hour.
  it('allows ten test sends an hour from one address, as Ghost', async () => {
    let refused = null;
    for (let i = 0; i < 12 && !refused; i++) {
      const res = await send({ emails: [] });
      if (res.statusCode === 429) refused = res;
    }
    expect(refused).not.toBeNull();
    expectGhostError(refused!, { status: 429, type: 'TooManyRequestsError', message: 'Only 10 test emails can be sent per hour' });
  });
});
