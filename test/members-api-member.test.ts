import { createHash, createHmac, createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ghostError } from './support.js';
import { useTestSite } from './test-site.js';
import { MEMBERS, cookiesOf, followMagicLink, linkIn, openLink } from './members-support.js';
import { MailSink } from './mail-support.js';

/**
 * A signed-in member's own routes: member data and edits, newsletter preferences from an unsubscribe link,
 * the identity token and its keys, the e-mail change link, sign-out (here and everywhere), feedback, the
 * announcement bar, and the paid routes that need Stripe.
 */
const mail = new MailSink();
beforeAll(() => mail.start());
afterAll(() => mail.stop());
const t = useTestSite({ settings: () => ({ MAIL_SMTP_URL: mail.url }) });

let ip = 1;
async function signUp(email: string, name = 'Member Person'): Promise<string> {
  const { sent, opened } = await followMagicLink(t.app, mail, { email, name, emailType: 'signup' }, `10.8.0.${ip++}`);
  expect(sent.statusCode).toBe(201);
  expect(opened.statusCode).toBe(302);
  return cookiesOf(opened);
}

const get = (url: string, cookie?: string) => t.app.inject({ url: `${MEMBERS}${url}`, headers: cookie ? { cookie } : {} });
const call = (method: 'PUT' | 'POST' | 'DELETE', url: string, body: unknown, cookie?: string) =>
  t.app.inject({ method, url: `${MEMBERS}${url}`, headers: cookie ? { cookie } : {}, ...(body === undefined ? {} : { payload: body as object }) });

async function setting(key: string) {
  return (await t.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value!;
}

describe('GET and PUT /member/', () => {
  it('answers 204 without a session, and for a forged signature', async () => {
    expect((await get('/member/')).statusCode).toBe(204);
    const cookie = await signUp('forge@example.com');
    const forged = cookie.replace(/ghost-members-ssr\.sig=[^;]+/, 'ghost-members-ssr.sig=AAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await get('/member/', forged)).statusCode).toBe(204);
  });

  it('shows the member as Ghost formats it and lets them rename themselves and leave newsletters', async () => {
    const cookie = await signUp('self.edit@example.com', 'Self Editor');
    const me = await get('/member/', cookie);
    expect(Object.keys(me.json())).toEqual([
      'uuid',
      'email',
      'name',
      'firstname',
      'expertise',
      'avatar_image',
      'unsubscribe_url',
      'subscribed',
      'subscriptions',
      'paid',
      'created_at',
      'enable_comment_notifications',
      'newsletters',
      'email_suppression',
    ]);
    expect(me.json().newsletters[0]).toMatchObject({ name: 'Test Site', sort_order: 0 });
    const edited = await call('PUT', '/member/', { name: 'Renamed Person', newsletters: [], email: 'ignored@example.com' }, cookie);
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Renamed Person', firstname: 'Renamed', email: 'self.edit@example.com', newsletters: [] });
    const events = await t.db
      .selectFrom('members_subscribe_events')
      .select(['subscribed', 'source'])
      .innerJoin('members', 'members.id', 'members_subscribe_events.member_id')
      .where('members.email', '=', 'self.edit@example.com')
      .execute();
    expect(events).toEqual([
      { subscribed: true, source: 'member' },
      { subscribed: false, source: 'member' },
    ]);
  });

  it('answers Ghost’s plain-text errors', async () => {
    const none = await call('PUT', '/member/', { name: 'x' });
    expect([none.statusCode, none.body]).toEqual([400, 'Cookie ghost-members-ssr not found']);
    const cookie = await signUp('too.long@example.com');
    const long = await call('PUT', '/member/', { name: 'a'.repeat(200) }, cookie);
    expect(long.statusCode).toBe(500);
  });

  it('comped members are paid, with a complimentary subscription', async () => {
    const cookie = await signUp('comped@example.com');
    const id = (await t.db.selectFrom('members').select('id').where('email', '=', 'comped@example.com').executeTakeFirstOrThrow()).id;
    const tier = (await t.db.selectFrom('products').select('id').where('type', '=', 'paid').executeTakeFirstOrThrow()).id;
    expect((await t.admin.put(`/members/${id}/`, { members: [{ tiers: [{ id: tier }] }] })).statusCode).toBe(200);
    const me = (await get('/member/', cookie)).json();
    expect(me.paid).toBe(true);
    expect(me.subscriptions[0]).toMatchObject({ status: 'active', tier: { id: tier } });
  });
});

describe('newsletter preferences by uuid and key', () => {
  it('reads and changes them without a session; a wrong key is refused', async () => {
    await signUp('prefs@example.com');
    const member = await t.db.selectFrom('members').selectAll().where('email', '=', 'prefs@example.com').executeTakeFirstOrThrow();
    const key = createHmac('sha256', await setting('members_email_auth_secret'))
      .update(member.uuid!)
      .digest('hex');
    const read = await get(`/member/newsletters/?uuid=${member.uuid}&key=${key}`);
    expect(read.statusCode).toBe(200);
    expect(Object.keys(read.json())).toEqual(['uuid', 'email', 'name', 'newsletters', 'enable_comment_notifications', 'status']);
    const changed = await call('PUT', `/member/newsletters/?uuid=${member.uuid}&key=${key}`, { newsletters: [], name: 'not changed' });
    expect(changed.json()).toMatchObject({ newsletters: [], name: 'Member Person' });
    const unknown = await call('PUT', `/member/newsletters/?uuid=${member.uuid}&key=${key}`, { newsletters: [{ id: '000000000000000000000000' }] });
    expect([unknown.statusCode, unknown.body]).toEqual([400, 'Failed to update newsletters']);
    const bad = await get(`/member/newsletters/?uuid=${member.uuid}&key=${'0'.repeat(64)}`);
    expect(bad.statusCode).toBe(401);
    expect(ghostError(bad)).toMatchObject({ type: 'UnauthorizedError', message: 'Invalid key.' });
    expect(ghostError(await get('/member/newsletters/')).message).toBe('Missing uuid.');
  });
});

describe('identity tokens', () => {
  it('signs RS512 tokens that verify against /members/.well-known/jwks.json', async () => {
    const cookie = await signUp('token@example.com');
    const res = await get('/session/', cookie);
    expect(res.statusCode).toBe(200);
    const [head, payload, signature] = res.body.split('.') as [string, string, string];
    const jwks = (await t.app.inject({ url: '/members/.well-known/jwks.json' })).json();
    const jwk = jwks.keys[0];
    expect(Object.keys(jwk)).toEqual(['kty', 'kid', 'n', 'e']);
    expect(jwk.kid).toBe(
      createHash('sha256')
        .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
        .digest('base64url'),
    );
    expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toEqual({ alg: 'RS512', typ: 'JWT', kid: jwk.kid });
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(Object.keys(claims)).toEqual(['sub', 'kid', 'iat', 'exp', 'aud', 'iss']);
    expect(claims).toMatchObject({ sub: 'token@example.com', aud: 'http://127.0.0.1:2368/members/api', iss: 'http://127.0.0.1:2368/members/api' });
    expect(claims.exp - claims.iat).toBe(600);
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    expect(verify('sha512', Buffer.from(`${head}.${payload}`), key, Buffer.from(signature, 'base64url'))).toBe(true);
    expect((await get('/session/')).statusCode).toBe(204);
  });
});

describe('e-mail change', () => {
  it('mails a confirmation link to the new address; opening it moves the member', async () => {
    const cookie = await signUp('old.address@example.com');
    const identity = (await get('/session/', cookie)).body;
    expect((await call('POST', '/member/email/', { email: 'new.address@example.com' })).body).toBe('No Permission.');
    const garbage = await call('POST', '/member/email/', { email: 'new.address@example.com', identity: 'garbage' });
    expect([garbage.statusCode, garbage.body]).toEqual([401, 'Unauthorized.']);
    const before = mail.received.length;
    const res = await call('POST', '/member/email/', { email: 'new.address@example.com', identity });
    expect([res.statusCode, res.body]).toEqual([201, 'Created.']);
    const m = await mail.next('new.address@example.com', before);
    expect(m.subject).toBe('📫 Confirm your email update for Test Site!');
    expect(m.text).toContain('Please confirm your email address with this link:');
    const opened = await openLink(t.app, linkIn(m));
    expect(opened.headers.location).toBe('/?action=updateEmail&success=true');
    expect((await get('/member/', cookiesOf(opened))).json().email).toBe('new.address@example.com');
    const change = await t.db
      .selectFrom('members_email_change_events')
      .select(['from_email', 'to_email'])
      .where('to_email', '=', 'new.address@example.com')
      .execute();
    expect(change).toEqual([{ from_email: 'old.address@example.com', to_email: 'new.address@example.com' }]);
  });
});

describe('sign-out', () => {
  it('clears the cookies as Ghost does; `all: true` ends every session of the member', async () => {
    const first = await signUp('signout@example.com');
    const second = cookiesOf((await followMagicLink(t.app, mail, { email: 'signout@example.com', emailType: 'signin' }, '10.8.1.1')).opened);
    const out = await call('DELETE', '/session/', undefined, first);
    expect(out.statusCode).toBe(204);
    const cleared = out.headers['set-cookie'] as string[];
    expect(cleared[0]).toBe('ghost-members-ssr=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=lax; httponly');
    expect(cleared[1]).toMatch(/^ghost-members-ssr\.sig=[\w-]+; path=\/; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=lax; httponly$/);
    // A plain sign-out only drops this browser's cookies: the other session still works.
    expect((await get('/member/', second)).statusCode).toBe(200);
    expect((await call('DELETE', '/session/', { all: true }, second)).statusCode).toBe(204);
    expect((await get('/member/', second)).statusCode).toBe(204);
    expect((await get('/member/', first)).statusCode).toBe(204);
    const anonymous = await call('DELETE', '/session/', { all: true });
    expect([anonymous.statusCode, anonymous.body]).toEqual([400, 'Cookie ghost-members-ssr not found']);
  });
});

describe('suppression, feedback and announcements', () => {
  it('lets a member lift their e-mail suppression', async () => {
    const cookie = await signUp('suppressed@example.com');
    await t.db.updateTable('members').set({ email_disabled: true }).where('email', '=', 'suppressed@example.com').execute();
    expect((await get('/member/', cookie)).json().email_suppression).toEqual({ suppressed: true, info: null });
    expect((await call('DELETE', '/member/suppression/', undefined, cookie)).statusCode).toBe(204);
    expect((await get('/member/', cookie)).json().email_suppression).toEqual({ suppressed: false, info: null });
    expect((await call('DELETE', '/member/suppression/', undefined)).body).toBe('Cookie ghost-members-ssr not found');
  });

  it('records feedback once per member and post, with Ghost’s errors', async () => {
    const cookie = await signUp('feedback@example.com');
    const post = (await t.admin.post('/posts/', { posts: [{ title: 'Rated', status: 'published' }] })).json().posts[0];
    const first = await call('POST', '/feedback/', { feedback: [{ post_id: post.id, score: 1 }] }, cookie);
    expect(first.statusCode).toBe(201);
    expect(Object.keys(first.json().feedback[0])).toEqual(['id', 'score', 'memberId', 'postId']);
    const again = await call('POST', '/feedback/', { feedback: [{ post_id: post.id, score: 0 }] }, cookie);
    expect(again.json().feedback[0]).toMatchObject({ id: first.json().feedback[0].id, score: 0 });
    expect(ghostError(await call('POST', '/feedback/', { feedback: [{ post_id: post.id, score: 3 }] }, cookie))).toMatchObject({
      type: 'ValidationError',
      message: 'Validation error, cannot save feedback.',
      context: 'Invalid feedback score. Only 1 or 0 is currently allowed.',
    });
    expect(ghostError(await call('POST', '/feedback/', { feedback: [{ post_id: '0'.repeat(24), score: 1 }] }, cookie))).toMatchObject({
      type: 'NotFoundError',
      context: 'Post not found.',
    });
    expect(ghostError(await call('POST', '/feedback/', { feedback: [{ post_id: post.id, score: 1 }] })).message).toBe('Missing uuid.');
  });

  it('shows the announcement to the audiences it names', async () => {
    expect((await get('/announcement/')).json()).toEqual({ announcement: [{}] });
    await t.admin.put('/settings/', {
      settings: [
        { key: 'announcement_content', value: '<p>Hello</p>' },
        { key: 'announcement_visibility', value: '["free_members"]' },
      ],
    });
    expect((await get('/announcement/')).json()).toEqual({ announcement: [{}] });
    const cookie = await signUp('announce@example.com');
    expect((await get('/announcement/', cookie)).json()).toEqual({ announcement: [{ announcement: '<p>Hello</p>', announcement_background: 'dark' }] });
  });
});

describe('routes that need Stripe', () => {
  it('answer as Ghost does without a Stripe connection', async () => {
    const none = await call('POST', '/create-stripe-checkout-session/', {});
    expect(ghostError(none)).toMatchObject({ type: 'BadRequestError', message: 'Bad Request.', context: 'Expected offerId or tierId, received none' });
    const tier = (await t.db.selectFrom('products').select('id').where('type', '=', 'paid').executeTakeFirstOrThrow()).id;
    const paid = await call('POST', '/create-stripe-checkout-session/', { tierId: tier, cadence: 'month' });
    expect([paid.statusCode, ghostError(paid).message]).toEqual([400, 'Unable to initiate checkout session']);
    const sub = await call('PUT', '/subscriptions/abc/', { identity: 'x' });
    expect([sub.statusCode, sub.body]).toEqual([400, 'Cannot update Stripe Subscription without a Stripe Connection']);
    const unknown = await get('/nope/');
    expect([unknown.statusCode, ghostError(unknown).message]).toEqual([404, 'Resource not found']);
  });
});
