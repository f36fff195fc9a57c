import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectGhostError, expectRefused } from './support.js';
import { first } from './posts-support.js';
import { useTestSite } from './test-site.js';
import { lexicalOf, makePost } from './factories.js';
import { MailSink } from './mail-support.js';
import { waitFor } from './newsletter-support.js';

/**
 * Newsletter sending end to end in one app with its job runner, against a real SMTP server on loopback:
 * who gets a copy, what is in it, 4xx refusals retried and 5xx ones recorded, the one-click unsubscribe of
 * RFC 8058, the open pixel, and the Admin API's emails endpoints.
 */
const MEMBERS = 240;
// Refused for now on the first two attempts, then accepted; and one address refused for good.
const flaky = new Set<string>();
const sink = new MailSink({
  refuse: (address) => {
    if (address.startsWith('gone-')) return 550;
    if (flaky.has(address) && (sink.attempts.get(address) ?? 0) <= 2) return 451;
    return undefined;
  },
});
let smtpUrl = '';
beforeAll(async () => {
  smtpUrl = await sink.start();
});
afterAll(async () => {
  await sink.stop();
});
const t = useTestSite({
  jobs: true,
  settings: () => ({ NEWSLETTER_SMTP_URL: smtpUrl, NEWSLETTER_BATCH_SIZE: '50', NEWSLETTER_RETRY_MS: '50', JOBS_POLL_MS: '50' }),
});

async function publish(title: string, text: string, query: string): Promise<{ postId: string; emailId: string }> {
  const postId = await makePost(t, { title, lexical: lexicalOf(text) });
  const current = first(await t.admin.get(`/posts/${postId}/`), 'posts');
  const res = await t.admin.put(`/posts/${postId}/${query}`, { posts: [{ updated_at: current.updated_at, status: 'published' }] });
  expect(res.statusCode).toBe(200);
  const email = first(res, 'posts').email;
  // The request only records the email: sending is the job runner's.
  expect(email.status).toBe('pending');
  return { postId, emailId: email.id };
}

const emailOf = async (id: string) => first(await t.admin.get(`/emails/${id}/`), 'emails');
const settled = (id: string) =>
  waitFor(
    async () => {
      const email = await emailOf(id);
      return ['submitted', 'failed'].includes(email.status) && email;
    },
    60_000,
    `email ${id} to be sent`,
  );

async function addMembers(prefix: string, count: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = `${prefix}-${i}@example.com`;
    const res = await t.admin.post('/members/', { members: [{ email, name: `Reader ${prefix} ${i}`, ...extra }] });
    expect(res.statusCode).toBe(201);
    emails.push(email);
  }
  return emails;
}

describe('newsletter sending', () => {
  let subscribed: string[] = [];
  let emailId = '';

  // Adds the members one request each and waits for the whole send: about 34 s on a loaded 2-core machine.
  it('sends one copy to each subscribed member and to nobody else', { timeout: 120_000 }, async () => {
    subscribed = await addMembers('reader', MEMBERS);
    const unsubscribed = await addMembers('quiet', 10, { newsletters: [] });
    const disabled = await addMembers('bounced', 5);
    await t.db.updateTable('members').set({ email_disabled: true }).where('email', 'in', disabled).execute();
    const sent = await publish('Spring issue', 'The daffodils are out.', '?newsletter=default-newsletter');
    emailId = sent.emailId;
    const email = await settled(emailId);
    expect(email).toMatchObject({ status: 'submitted', error: null, email_count: MEMBERS, delivered_count: MEMBERS, failed_count: 0 });

    const counts = sink.counts();
    for (const address of subscribed) expect(counts.get(address), address).toBe(1);
    for (const address of [...unsubscribed, ...disabled]) expect(counts.has(address), address).toBe(false);
    expect(sink.received).toHaveLength(MEMBERS);

    const mail = sink.received.find((m) => m.to === subscribed[0])!;
    expect(mail.subject).toBe('Spring issue');
    expect(mail.text).toContain('The daffodils are out.');
    expect(mail.html).toContain('The daffodils are out.');
    // The default newsletter's `sender_reply_to` is `newsletter`: Ghost replies to the sender itself.
    expect(mail.replyTo).toBe(mail.headers.get('from'));
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.headers.get('list-unsubscribe')).toMatch(
      /^<http:\/\/127\.0\.0\.1:2368\/unsubscribe\/\?uuid=[0-9a-f-]{36}&key=[0-9a-f]{64}&newsletter=[0-9a-f-]{36}>$/,
    );

    // The post shows the email as sent; the batches are Ghost's shape.
    const post = first(await t.admin.get(`/posts/${sent.postId}/`), 'posts');
    expect(post.email).toMatchObject({ id: emailId, status: 'submitted', delivered_count: MEMBERS });
    const batches = (await t.admin.get(`/emails/${emailId}/batches/?include=count.recipients`)).json();
    expect(batches.batches).toHaveLength(Math.ceil(MEMBERS / 50));
    expect(Object.keys(batches.batches[0])).toEqual([
      'id',
      'provider_id',
      'status',
      'member_segment',
      'created_at',
      'updated_at',
      'error_status_code',
      'error_message',
      'error_data',
      'count',
    ]);
    expect(batches.batches.every((b: any) => b.status === 'submitted')).toBe(true);
    expect(batches.batches.reduce((n: number, b: any) => n + b.count.recipients, 0)).toBe(MEMBERS);
    expect(batches.meta.pagination).toMatchObject({ page: 1, total: Math.ceil(MEMBERS / 50) });
    const members = (await t.admin.get(`/members/?filter=${encodeURIComponent(`email:'${subscribed[0]}'`)}`)).json().members;
    expect(members[0].email_count).toBe(1);
  });

  it('retries recipients refused for now (451) and records those refused for good (550)', async () => {
    const retried = await addMembers('flaky', 6);
    for (const address of retried) flaky.add(address);
    const [gone] = await addMembers('gone', 1);
    const before = sink.received.length;
    const { emailId: id } = await publish(
      'Summer issue',
      'Long evenings.',
      '?newsletter=default-newsletter&email_segment=' + encodeURIComponent("email:~'flaky-',email:~'gone-'"),
    );
    const email = await settled(id);
    expect(email).toMatchObject({ status: 'submitted', email_count: 7, delivered_count: 6, failed_count: 1 });
    const counts = new Map<string, number>();
    for (const mail of sink.received.slice(before)) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
    for (const address of retried) {
      expect(counts.get(address), address).toBe(1);
      expect(sink.attempts.get(address)).toBe(3);
    }
    expect(counts.has(gone!)).toBe(false);

    const failures = (await t.admin.get(`/emails/${id}/recipient-failures/?include=member,email_recipient`)).json();
    expect(failures.failures).toHaveLength(1);
    expect(failures.failures[0]).toMatchObject({
      code: 550,
      severity: 'permanent',
      member: { email: gone },
      email_recipient: { member_email: gone, delivered_at: null },
    });
    expect(typeof failures.failures[0].message).toBe('string');
    const bare = (await t.admin.get(`/emails/${id}/recipient-failures/`)).json().failures[0];
    expect(bare).toMatchObject({ member: null, email_recipient: null });
    const filtered = (await t.admin.get(`/emails/${id}/recipient-failures/?filter=severity:temporary`)).json();
    expect(filtered.failures).toHaveLength(0);
  });

  it('one-click unsubscribe (RFC 8058) takes the member off the newsletter; a bad key is refused', async () => {
    const address = subscribed[1]!;
    const mail = sink.received.find((m) => m.to === address)!;
    const link = /^<(.+)>$/.exec(mail.headers.get('list-unsubscribe')!)![1]!;
    const url = new URL(link);
    const path = `${url.pathname}${url.search}`;
    // The mail's own link in the body is the same personal link.
    expect(mail.html.includes(link) || mail.html.includes(link.replace(/&/g, '&amp;'))).toBe(true);

    const forged = await t.app.inject({
      method: 'POST',
      url: path.replace(/key=[0-9a-f]+/, `key=${'0'.repeat(64)}`),
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.statusCode).toBe(400);
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(302);
    const target = new URL(page.headers.location as string);
    expect(target.searchParams.get('action')).toBe('unsubscribe');
    expect(target.searchParams.get('uuid')).toBe(url.searchParams.get('uuid'));

    const done = await t.app.inject({
      method: 'POST',
      url: path,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.statusCode).toBe(201);
    const member = (await t.admin.get(`/members/?filter=${encodeURIComponent(`email:'${address}'`)}`)).json().members[0];
    expect(member.newsletters).toEqual([]);
    expect((await t.app.inject({ method: 'POST', url: '/unsubscribe/' })).statusCode).toBe(400);

    // The next send leaves the member out.
    const before = sink.received.length;
    const { emailId: id } = await publish(
      'Autumn issue',
      'Leaves.',
      '?newsletter=default-newsletter&email_segment=' + encodeURIComponent(`email:'${address}',email:'${subscribed[2]}'`),
    );
    expect(await settled(id)).toMatchObject({ email_count: 1 });
    expect(sink.received.slice(before).map((m) => m.to)).toEqual([subscribed[2]]);
  });

  it('sends an e-mail-only post (it becomes sent) to the segment given', async () => {
    const address = subscribed[5]!;
    const before = sink.received.length;
    const postId = await makePost(t, { title: 'Inbox only', lexical: lexicalOf('Only in your inbox.'), email_only: true });
    const current = first(await t.admin.get(`/posts/${postId}/`), 'posts');
    const segment = encodeURIComponent(`email:'${address}'`);
    const res = await t.admin.put(`/posts/${postId}/?newsletter=default-newsletter&email_segment=${segment}`, {
      posts: [{ updated_at: current.updated_at, status: 'published' }],
    });
    const post = first(res, 'posts');
    expect(post).toMatchObject({ status: 'sent', email: { status: 'pending', email_count: 1 } });
    expect(await settled(post.email.id)).toMatchObject({ status: 'submitted', delivered_count: 1 });
    const copies = sink.received.slice(before);
    expect(copies.map((m) => m.to)).toEqual([address]);
    expect(copies[0]!.text).toContain('Only in your inbox.');
  });

  it('records an open once through the pixel when email_track_opens is on', async () => {
    expect((await t.admin.put('/settings/', { settings: [{ key: 'email_track_opens', value: true }] })).statusCode).toBe(200);
    const address = subscribed[3]!;
    const before = sink.received.length;
    const { emailId: id } = await publish('Winter issue', 'Snow.', '?newsletter=default-newsletter&email_segment=' + encodeURIComponent(`email:'${address}'`));
    await settled(id);
    const mail = sink.received.slice(before).find((m) => m.to === address)!;
    const pixel = /<img [^>]*src="([^"]+\/email\/open\/[^"]+)"/.exec(mail.html)![1]!.replace(/&amp;/g, '&');
    const path = new URL(pixel).pathname;
    const forged = await t.app.inject({ method: 'GET', url: path.replace(/\/[0-9a-f]{32}\/$/, `/${'0'.repeat(32)}/`) });
    expect(forged.statusCode).toBe(200);
    expect((await emailOf(id)).opened_count).toBe(0);
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/gif');
    }
    expect((await emailOf(id)).opened_count).toBe(1);
    const member = (await t.admin.get(`/members/?filter=${encodeURIComponent(`email:'${address}'`)}`)).json().members[0];
    expect(member.email_opened_count).toBe(1);
  });

  it('sends links through click-tracking redirects (email_track_clicks, on by default) that record the click', async () => {
    const address = subscribed[4]!;
    const before = sink.received.length;
    const text = (value: string) => ({ detail: 0, format: 0, mode: 'normal', style: '', text: value, type: 'text', version: 1 });
    const block = { direction: 'ltr', format: '', indent: 0, version: 1 };
    const link = { ...block, type: 'link', rel: null, target: null, title: null, url: 'https://example.com/field-guide', children: [text('the guide')] };
    const lexical = JSON.stringify({ root: { ...block, type: 'root', children: [{ ...block, type: 'paragraph', children: [text('Read '), link] }] } });
    const postId = await makePost(t, { title: 'Autumn issue', lexical });
    const current = first(await t.admin.get(`/posts/${postId}/`), 'posts');
    const segment = encodeURIComponent(`email:'${address}'`);
    const res = await t.admin.put(`/posts/${postId}/?newsletter=default-newsletter&email_segment=${segment}`, {
      posts: [{ updated_at: current.updated_at, status: 'published' }],
    });
    await settled(first(res, 'posts').email.id);
    const mail = sink.received.slice(before).find((m) => m.to === address)!;
    const member = (await t.admin.get(`/members/?filter=${encodeURIComponent(`email:'${address}'`)}`)).json().members[0];
    const tracked = [...mail.html.matchAll(new RegExp(`href="http://127\\.0\\.0\\.1:2368(/r/[0-9a-f]{8}\\?m=${member.uuid})"`, 'g'))].map((m) => m[1]!);
    expect(tracked.length, 'links with the member uuid').toBeGreaterThan(0);
    expect(mail.html).not.toContain('href="https://example.com/field-guide');
    const targets = await Promise.all(tracked.map(async (path) => (await t.app.inject({ method: 'GET', url: path })).headers.location as string));
    expect(targets.filter((to) => to.startsWith('https://example.com/field-guide'))).toHaveLength(1);
    const links = (await t.admin.get(`/links/?filter=${encodeURIComponent(`post_id:'${postId}'`)}`)).json().links as {
      link: { to: string };
      count: { clicks: number };
    }[];
    const guide = links.find((l) => l.link.to.startsWith('https://example.com/field-guide'));
    expect(guide?.count.clicks).toBe(1);
  });
});

describe('Admin API: emails', () => {
  it('lists and reads emails in Ghost’s shape; unknown ids are 404, bad ids 422', async () => {
    const list = (await t.admin.get('/emails/?limit=2')).json();
    expect(list.emails).toHaveLength(2);
    expect(list.meta.pagination).toMatchObject({ page: 1, limit: 2 });
    const one = await emailOf(list.emails[0].id);
    expect(Object.keys(one)).toContain('delivered_count');
    expect(one).not.toHaveProperty('created_by');
    const filtered = (await t.admin.get('/emails/?filter=status:failed')).json();
    expect(filtered.emails).toEqual([]);
    // Ghost's answers (recorded from 5.130.6).
    expectRefused(await t.admin.get('/emails/aaaaaaaaaaaaaaaaaaaaaaaa/'), 404, 'read email', { context: 'Email not found.' });
    expectRefused(await t.admin.get('/emails/not-an-id/'), 422, 'read email', { context: 'Validation (matches) failed for id undefined.id' });
    expectGhostError(await t.admin.put('/emails/aaaaaaaaaaaaaaaaaaaaaaaa/retry/', {}), {
      status: 404,
      type: 'NotFoundError',
      message: 'Email not found.',
      context: null,
    });
    // The nested lists do not check the email: an unknown one lists nothing.
    for (const path of ['/emails/not-an-id/batches/', '/emails/aaaaaaaaaaaaaaaaaaaaaaaa/recipient-failures/']) {
      const res = await t.admin.get(path);
      expect(res.statusCode).toBe(200);
      expect(res.json().meta.pagination).toMatchObject({ total: 0 });
    }
    const projected = first(await t.admin.get(`/emails/${list.emails[0].id}/?fields=subject`), 'emails');
    expect(projected).toEqual({ id: list.emails[0].id, subject: list.emails[0].subject });
    // Retrying an email that has not failed answers it unchanged.
    const again = await t.admin.put(`/emails/${list.emails[0].id}/retry/`, {});
    expect(first(again, 'emails')).toMatchObject({ id: list.emails[0].id, status: list.emails[0].status });
  });

  it('retries a failed email: it goes back to pending and its failed batches are sent again', async () => {
    const address = 'retry-me@example.com';
    expect((await t.admin.post('/members/', { members: [{ email: address }] })).statusCode).toBe(201);
    flaky.add(address);
    // More refusals than retries: the batch fails, and so does the email.
    sink.attempts.set(address, -10);
    const { emailId: id } = await publish('Retry issue', 'Again.', '?newsletter=default-newsletter&email_segment=' + encodeURIComponent(`email:'${address}'`));
    const failed = await settled(id);
    expect(failed).toMatchObject({ status: 'failed', error: 'An unexpected error occurred, please retry sending your newsletter.', delivered_count: 0 });
    const batch = (await t.admin.get(`/emails/${id}/batches/`)).json().batches[0];
    expect(batch).toMatchObject({ status: 'failed', error_status_code: 451 });
    const temporary = (await t.admin.get(`/emails/${id}/recipient-failures/`)).json().failures;
    expect(temporary).toMatchObject([{ code: 451, severity: 'temporary' }]);

    sink.attempts.set(address, 10);
    const retry = await t.admin.put(`/emails/${id}/retry/`, {});
    expect(retry.statusCode).toBe(200);
    expect(first(retry, 'emails')).toMatchObject({ id, status: 'pending' });
    expect(await settled(id)).toMatchObject({ status: 'submitted', delivered_count: 1, error: null });
  });
});
