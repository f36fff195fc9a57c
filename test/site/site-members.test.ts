import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestSite } from '../test-site.js';
import { cookiesOf, followMagicLink } from '../members-support.js';
import { MailSink } from '../mail-support.js';
import { installTheme } from './site-support.js';
import { lexicalOf } from '../factories.js';

/**
 * A members-only post on the rendered site: a visitor sees Source's call to action, a signed-in member (the
 * Members API's cookie) reads it whole and is `@member` in the theme; neither page reaches the other through
 * the page cache, which is on.
 */
const mail = new MailSink();
beforeAll(() => mail.start());
afterAll(() => mail.stop());
const t = useTestSite({ settings: () => ({ MAIL_SMTP_URL: mail.url, RESPONSE_CACHE_MB: '8' }) });

const lexical = lexicalOf('Only for members here');

async function signIn(email: string): Promise<string> {
  return cookiesOf((await followMagicLink(t.app, mail, { email, emailType: 'signup' }, '10.7.0.1')).opened);
}

describe('members on the rendered site', () => {
  it('gates a members-only post for visitors and shows it whole to a signed-in member', async () => {
    await installTheme(t, 'source');
    const res = await t.admin.post('/posts/', { posts: [{ title: 'Behind the door', slug: 'behind', status: 'published', visibility: 'members', lexical }] });
    expect(res.statusCode).toBe(201);

    const visitor = await t.app.inject({ url: '/behind/' });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.body).not.toContain('Only for members here');
    expect(visitor.body).toContain('class="gh-post-upgrade-cta"');

    const cookie = await signIn('reader@example.com');
    const member = await t.app.inject({ url: '/behind/', headers: { cookie } });
    expect(member.statusCode).toBe(200);
    expect(member.body).toContain('Only for members here');
    expect(member.body).not.toContain('class="gh-post-upgrade-cta"');
    expect(member.headers['cache-control']).toContain('private');
    // `@member` is set: Source's navigation offers the account screen instead of sign-in.
    expect(member.body).toContain('data-portal="account"');
    expect(visitor.body).not.toContain('data-portal="account"');

    const again = await t.app.inject({ url: '/behind/' });
    expect(again.body).not.toContain('Only for members here');
  });

  it('prints the frontend integration key for Portal and search', async () => {
    await installTheme(t, 'source');
    const home = await t.app.inject({ url: '/' });
    expect(home.body).toMatch(/data-key="[0-9a-f]{26}"/);
  });
});
