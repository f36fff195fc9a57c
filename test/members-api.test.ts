import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockFrom } from '../src/clock.js';
import { ghostError } from './support.js';
import { useTestSite } from './test-site.js';
import { MEMBERS, cookiesOf, linkIn, openLink } from './members-support.js';
import { MailSink } from './mail-support.js';

/**
 * The Members API through HTTP with a real SMTP server catching the magic links: sign-up, sign-in, the
 * session cookies as Ghost signs them, the link's reuse window and expiry, Ghost's refusals and limits.
 */
const mail = new MailSink();
let nowMs = Date.parse('2026-06-01T10:00:00.000Z');
beforeAll(() => mail.start());
afterAll(() => mail.stop());
const t = useTestSite({ settings: () => ({ MAIL_SMTP_URL: mail.url, MAIL_FROM: 'members@quire.test' }), clock: clockFrom(() => nowMs) });

let ipCounter = 1;
/** A fresh client address per call keeps the per-address limit out of tests that are not about it. */
const freshIp = () => `10.9.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

function send(body: Record<string, unknown>, headers: Record<string, string> = {}, remoteAddress = freshIp()) {
  return t.app.inject({ method: 'POST', url: `${MEMBERS}/send-magic-link/`, remoteAddress, headers, payload: body });
}

async function linkFor(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const before = mail.received.length;
  const res = await send(body, headers);
  expect(res.statusCode, res.body).toBe(201);
  return { res, mail: await mail.next(body.email as string, before) };
}

async function themeSecret() {
  const row = await t.db.selectFrom('settings').select('value').where('key', '=', 'theme_session_secret').executeTakeFirstOrThrow();
  return row.value!;
}

describe('GET /members/api/site/ and /integrity-token/', () => {
  it('answers the public site facts', async () => {
    const res = await t.app.inject({ url: `${MEMBERS}/site/` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('private');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.json().site).toMatchObject({ title: 'Test Site', url: 'http://127.0.0.1:2368/', allow_external_signup: true });
  });

  it('hands out integrity tokens signed with the theme session secret, valid five minutes', async () => {
    const res = await t.app.inject({ url: `${MEMBERS}/integrity-token/` });
    expect(res.statusCode).toBe(200);
    const [expiry, nonce, digest] = res.body.split(':');
    expect(Number(expiry)).toBe(nowMs + 5 * 60 * 1000);
    expect(digest).toBe(
      createHmac('sha256', await themeSecret())
        .update(`${expiry}:${nonce}`)
        .digest('hex'),
    );
  });
});

describe('sign-up through a magic link', () => {
  it('mails Ghost’s sign-up link, and the link makes the member and signs them in', async () => {
    await t.admin.post('/labels/', { labels: [{ name: 'Existing' }] });
    const { res, mail: m } = await linkFor(
      {
        email: 'reader.one@example.com',
        emailType: 'signup',
        name: 'Reader One',
        labels: ['From form'],
        urlHistory: [{ path: '/welcome/', time: nowMs - 1000, referrerSource: 'Twitter', referrerMedium: 'social' }],
      },
      { referer: 'http://127.0.0.1:2368/some-post/' },
    );
    expect(res.body).toBe('Created.');
    expect(m.subject).toBe('🙌 Complete your sign up to Test Site!');
    expect(m.text).toContain('Tap the link below to complete the signup process for Test Site, and be automatically signed in:');
    expect(m.text).toContain('For your security, the link will expire in 24 hours time.');
    expect(m.text).toContain('Sent to reader.one@example.com');
    expect(m.html).toContain('Confirm signup');
    const link = linkIn(m);
    expect(new URL(link).searchParams.get('action')).toBe('signup');
    expect(new URL(link).searchParams.get('r')).toBe('http://127.0.0.1:2368/some-post/');
    // Nothing exists until the link is opened.
    expect(await t.db.selectFrom('members').select('id').where('email', '=', 'reader.one@example.com').executeTakeFirst()).toBeUndefined();

    const opened = await openLink(t.app, link);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('http://127.0.0.1:2368/some-post/?action=signup&success=true');
    const setCookies = opened.headers['set-cookie'] as string[];
    const member = await t.db.selectFrom('members').selectAll().where('email', '=', 'reader.one@example.com').executeTakeFirstOrThrow();
    const expires = new Date(nowMs - (nowMs % 1000) + 184 * 24 * 3600 * 1000).toUTCString();
    const sig = createHmac('sha1', await themeSecret())
      .update(`ghost-members-ssr=${member.transient_id}`)
      .digest('base64')
      .replace(/\//g, '_')
      .replace(/\+/g, '-')
      .replace(/=/g, '');
    expect(setCookies[0]).toBe(`ghost-members-ssr=${member.transient_id}; path=/; expires=${expires}; samesite=lax; httponly`);
    expect(setCookies[1]).toBe(`ghost-members-ssr.sig=${sig}; path=/; expires=${expires}; samesite=lax; httponly`);
    expect(member).toMatchObject({ name: 'Reader One', status: 'free' });

    const created = await t.db.selectFrom('members_created_events').selectAll().where('member_id', '=', member.id).executeTakeFirstOrThrow();
    expect(created).toMatchObject({
      source: 'member',
      attribution_type: 'url',
      attribution_url: '/welcome/',
      referrer_source: 'Twitter',
      referrer_medium: 'social',
    });
    const labels = await t.db
      .selectFrom('members_labels')
      .innerJoin('labels', 'labels.id', 'members_labels.label_id')
      .select('labels.name')
      .where('member_id', '=', member.id)
      .execute();
    expect(labels.map((l) => l.name)).toEqual(['From form']);
    expect(await t.db.selectFrom('members_login_events').select('id').where('member_id', '=', member.id).execute()).toHaveLength(1);

    const me = await t.app.inject({ url: `${MEMBERS}/member/`, headers: { cookie: cookiesOf(opened) } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'reader.one@example.com',
      name: 'Reader One',
      firstname: 'Reader',
      paid: false,
      subscribed: false,
      subscriptions: [],
    });
    expect(me.json().newsletters).toHaveLength(1);
  });

  it('sends a sign-in link instead when the address is already a member', async () => {
    const { mail: m } = await linkFor({ email: 'reader.one@example.com', emailType: 'signup' });
    expect(m.subject).toBe('🔑 Secure sign in link for Test Site');
    expect(m.text).toContain('Welcome back! Use this link to securely sign in to your Test Site account:');
    expect(new URL(linkIn(m)).searchParams.get('action')).toBe('signin');
  });

  it('defaults to subscribe, with its wording, and subscribes to the newsletters named', async () => {
    const { mail: m } = await linkFor({ email: 'reader.two@example.com', newsletters: [{ name: 'Test Site' }] });
    expect(m.subject).toBe('📫 Confirm your subscription to Test Site');
    expect(m.text).toContain("You're one tap away from subscribing to Test Site — please confirm your email address with this link:");
    const opened = await openLink(t.app, linkIn(m));
    expect(opened.headers.location).toBe('/?action=subscribe&success=true');
  });

  it('refuses unknown and archived newsletters by name', async () => {
    const res = await send({ email: 'reader.nl@example.com', emailType: 'signup', newsletters: [{ name: 'Nope' }, { name: 'Test Site' }] });
    expect(res.statusCode).toBe(400);
    expect(ghostError(res)).toMatchObject({ type: 'BadRequestError', message: 'Cannot subscribe to invalid newsletters Nope' });
  });
});

describe('sign-in links', () => {
  it('signs an existing member in, keeps the referrer and adds action=signin', async () => {
    const { mail: m } = await linkFor({ email: 'reader.one@example.com', emailType: 'signin' }, { referer: 'http://127.0.0.1:2368/tag/news/?page=2' });
    const opened = await openLink(t.app, linkIn(m));
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('http://127.0.0.1:2368/tag/news/?page=2&action=signin&success=true');
    expect(cookiesOf(opened)).toContain('ghost-members-ssr=');
  });

  it('ignores a referrer on another site', async () => {
    const { mail: m } = await linkFor({ email: 'reader.one@example.com', emailType: 'signin' }, { referer: 'https://evil.example/' });
    const opened = await openLink(t.app, linkIn(m));
    expect(opened.headers.location).toBe('/?action=signin&success=true');
  });

  it('refuses a sign-in for an unknown address with Ghost’s message', async () => {
    const res = await send({ email: 'nobody@example.com', emailType: 'signin' });
    expect(res.statusCode).toBe(400);
    expect(ghostError(res)).toMatchObject({ type: 'BadRequestError', message: 'No member exists with this e-mail address. Please sign up first.' });
  });

  it('is reusable for ten minutes after first use, then expired; never after 24 hours', async () => {
    const { mail: m } = await linkFor({ email: 'reader.one@example.com', emailType: 'signin' });
    const link = linkIn(m);
    expect((await openLink(t.app, link)).headers.location).toBe('/?action=signin&success=true');
    nowMs += 9 * 60 * 1000;
    expect((await openLink(t.app, link)).headers.location).toBe('/?action=signin&success=true');
    nowMs += 2 * 60 * 1000;
    const late = await openLink(t.app, link);
    expect(late.headers.location).toBe('/?action=signin&success=false');
    expect(late.headers['set-cookie']).toBeUndefined();

    const { mail: old } = await linkFor({ email: 'reader.one@example.com', emailType: 'signin' });
    nowMs += 24 * 60 * 60 * 1000 + 1000;
    expect((await openLink(t.app, linkIn(old))).headers.location).toBe('/?action=signin&success=false');
  });

  it('refuses a forged token with no session', async () => {
    const res = await t.app.inject({ url: '/members/?token=forged-token-aaaaaaaaaaaaaaaaaaaa&action=signin&r=http%3A%2F%2F127.0.0.1%3A2368%2F' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/?action=signin&success=false');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('does not sign up through a sign-in link whose member was deleted', async () => {
    const { mail: m } = await linkFor({ email: 'reader.gone@example.com', emailType: 'signup' });
    const opened = await openLink(t.app, linkIn(m));
    const id = (await t.db.selectFrom('members').select('id').where('email', '=', 'reader.gone@example.com').executeTakeFirstOrThrow()).id;
    const { mail: signin } = await linkFor({ email: 'reader.gone@example.com', emailType: 'signin' });
    expect((await t.admin.del(`/members/${id}/`)).statusCode).toBe(204);
    expect((await openLink(t.app, linkIn(signin))).headers.location).toBe('/?action=signin&success=false');
    // The old session names a member that no longer exists.
    expect((await t.app.inject({ url: `${MEMBERS}/member/`, headers: { cookie: cookiesOf(opened) } })).statusCode).toBe(204);
  });
});

describe('last_seen_at', () => {
  it('moves on sign-in and on GET /member/, at most once a day', async () => {
    const { mail: m } = await linkFor({ email: 'seen@example.com', emailType: 'signup' });
    const cookie = cookiesOf(await openLink(t.app, linkIn(m)));
    const seen = async () =>
      (await t.db.selectFrom('members').select('last_seen_at').where('email', '=', 'seen@example.com').executeTakeFirstOrThrow()).last_seen_at;
    const first = new Date((await seen())!).getTime();
    expect(first).toBe(nowMs - (nowMs % 1000));
    nowMs += 60 * 60 * 1000;
    expect((await t.app.inject({ url: `${MEMBERS}/member/`, headers: { cookie } })).statusCode).toBe(200);
    expect(new Date((await seen())!).getTime()).toBe(first);
    nowMs += 24 * 60 * 60 * 1000;
    await t.app.inject({ url: `${MEMBERS}/member/`, headers: { cookie } });
    expect(new Date((await seen())!).getTime()).toBe(nowMs - (nowMs % 1000));
  });
});

describe('send-magic-link refusals', () => {
  it.each([
    [{}, 'Email is required.'],
    [{ email: 'not-an-email' }, 'Email is not valid'],
  ])('%j → 400 %s', async (body, message) => {
    const res = await send(body);
    expect(res.statusCode).toBe(400);
    expect(ghostError(res)).toMatchObject({ type: 'BadRequestError', message });
  });

  it('answers a bare 400 for an unknown emailType, and pretends success for a filled honeypot', async () => {
    const bad = await send({ email: 'x@example.com', emailType: 'other' });
    expect([bad.statusCode, bad.body]).toEqual([400, 'Bad Request.']);
    const before = mail.received.length;
    const bot = await send({ email: 'bot@example.com', emailType: 'signup', honeypot: 'filled' });
    expect([bot.statusCode, bot.body]).toEqual([201, 'Created.']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mail.received.slice(before).filter((m) => m.to.includes('bot@example.com'))).toHaveLength(0);
  });

  it('refuses sign-ups from blocked domains', async () => {
    await t.admin.put('/settings/', { settings: [{ key: 'blocked_email_domains', value: '["spam.example"]' }] });
    const res = await send({ email: 'someone@SPAM.example', emailType: 'signup' });
    expect(res.statusCode).toBe(400);
    expect(ghostError(res).message).toBe('Signups from this email domain are currently restricted.');
    await t.admin.put('/settings/', { settings: [{ key: 'blocked_email_domains', value: '[]' }] });
  });

  it('follows members_signup_access: invite-only and paid-only refuse sign-ups, sign-ins still work', async () => {
    await t.admin.put('/settings/', { settings: [{ key: 'members_signup_access', value: 'invite' }] });
    try {
      const res = await send({ email: 'new.invite@example.com', emailType: 'signup' });
      expect(ghostError(res).message).toBe('This site is invite-only, contact the owner for access.');
      const unknown = await send({ email: 'new.invite@example.com', emailType: 'signin' });
      expect(ghostError(unknown).message).toBe('No member exists with this e-mail address.');
      expect((await send({ email: 'reader.one@example.com', emailType: 'signin' })).statusCode).toBe(201);
      expect((await t.app.inject({ url: `${MEMBERS}/site/` })).json().site.allow_external_signup).toBe(false);
      await t.admin.put('/settings/', { settings: [{ key: 'members_signup_access', value: 'paid' }] });
      expect(ghostError(await send({ email: 'new.invite@example.com', emailType: 'subscribe' })).message).toBe('This site only accepts paid members.');
    } finally {
      await t.admin.put('/settings/', { settings: [{ key: 'members_signup_access', value: 'all' }] });
    }
  });
});

describe('spam limits, counted in the database', () => {
  it('allows five requests per address and e-mail, then answers Ghost’s 429', async () => {
    const ip = '10.77.0.1';
    for (let i = 0; i < 5; i++) expect((await send({ email: 'limit.one@example.com', emailType: 'signup' }, {}, ip)).statusCode).toBe(201);
    const refused = await send({ email: 'limit.one@example.com', emailType: 'signup' }, {}, ip);
    expect(refused.statusCode).toBe(429);
    expect(ghostError(refused)).toMatchObject({
      type: 'TooManyRequestsError',
      message: 'Too many sign-in attempts try again in 10 minutes',
      context: 'Too many login attempts.',
      help: 'Too many login attempts.',
    });
  });

  it('allows nine requests per client address whatever the e-mail, then refuses', async () => {
    const ip = '10.77.0.2';
    for (let i = 0; i < 9; i++) expect((await send({ email: `limit.${i}@example.com`, emailType: 'signup' }, {}, ip)).statusCode).toBe(201);
    const refused = await send({ email: 'limit.last@example.com', emailType: 'signup' }, {}, ip);
    expect(refused.statusCode).toBe(429);
    expect(ghostError(refused).message).toBe('Too many different sign-in attempts, try again in 10 minutes');
  });
});
