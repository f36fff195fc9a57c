import { describe, expect, it } from 'vitest';
import { useTestSite } from '../test-site.js';
import { lexicalDocument, lexicalParagraph, makePost, makeTag } from '../factories.js';
import { themeZip } from '../uploads.js';
import { installTheme } from './site-support.js';

const NO_STORE = 'no-cache, private, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0';
const PREVIEW_CACHE = 'no-cache, max-age=0, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0';
const form = (password: string) => ({ 'content-type': 'application/x-www-form-urlencoded', payload: `password=${encodeURIComponent(password)}` });

describe('a private site', () => {
  const t = useTestSite();

  const setPrivate = async (settings: Record<string, unknown>) => {
    const res = await t.admin.put('/settings/', { settings: Object.entries(settings).map(([key, value]) => ({ key, value })) });
    expect(res.statusCode, res.body).toBe(200);
  };
  const login = (password: string, r = '%2Fhello-world%2F') =>
    t.app.inject({ method: 'POST', url: `/private/?r=${r}`, headers: { 'content-type': form(password)['content-type'] }, payload: form(password).payload });

  it('asks for the password before every page, and lets the visitor in with the cookie Ghost sets', async () => {
    await makeTag(t, { name: 'News', slug: 'news' });
    await makePost(t, { title: 'Hello world', slug: 'hello-world', status: 'published', tags: ['News'] });
    // Rendered and kept while the site is public: the kept copy must not reach anyone once it is private.
    expect((await t.app.inject({ url: '/hello-world/' })).statusCode).toBe(200);
    await setPrivate({ is_private: true, password: 'letmein' });

    for (const [url, r] of [
      ['/', '%2F'],
      ['/hello-world/', '%2Fhello-world%2F'],
      ['/hello-world', '%2Fhello-world'],
      ['/rss/', '%2Frss%2F'],
      ['/sitemap.xml', '%2Fsitemap.xml'],
      ['/nope/?x=1', '%2Fnope%2F%3Fx%3D1'],
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location, url).toBe(`/private/?r=${r}`);
      expect(res.headers['x-robots-tag']).toBe('noindex');
    }
    const robots = await t.app.inject({ url: '/robots.txt' });
    expect(robots.body).toBe('User-agent: *\nDisallow: /\n');
    expect((await t.app.inject({ url: '/favicon.ico' })).statusCode).toBe(200);

    const page = await t.app.inject({ url: '/private/?r=%2Fhello-world%2F' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe(NO_STORE);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.body).toContain('<form class="gh-signin" method="post"');
    expect(page.body).toContain('name="password"');

    const wrong = await login('nope');
    expect(wrong.statusCode).toBe(200);
    expect(wrong.body).toContain('<p class="main-error">Incorrect password.</p>');
    expect(wrong.headers['set-cookie']).toBeUndefined();

    const right = await login('letmein');
    expect(right.statusCode).toBe(302);
    expect(right.headers.location).toBe('/hello-world/');
    const setCookie = String(right.headers['set-cookie']);
    expect(setCookie).toMatch(/^ghost-private=[A-Za-z0-9+/=]+; path=\/; expires=.+ GMT; samesite=none; httponly$/);
    const cookie = setCookie.split(';')[0]!;
    const value = JSON.parse(Buffer.from(cookie.split('=').slice(1).join('='), 'base64').toString()) as { token: string; salt: string };
    expect(Object.keys(value)).toEqual(['token', 'salt']);

    const post = await t.app.inject({ url: '/hello-world/', headers: { cookie } });
    expect(post.statusCode).toBe(200);
    expect(post.body).toContain('Hello world');
    expect(post.headers['cache-control']).toBe(NO_STORE);
    expect(post.headers['x-robots-tag']).toBe('noindex');
    // What a verified visitor was shown is never served to the next visitor.
    expect((await t.app.inject({ url: '/hello-world/' })).statusCode).toBe(302);
    // The plain feeds stay closed even to a verified visitor; /private/ sends them home.
    expect((await t.app.inject({ url: '/rss/', headers: { cookie } })).statusCode).toBe(404);
    const again = await t.app.inject({ url: '/private/', headers: { cookie } });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('http://127.0.0.1:2368/');
    // An outside `r` lands on the home page.
    expect((await login('letmein', encodeURIComponent('https://evil.example/x'))).headers.location).toBe('/x');

    // The feeds under the secret hash need no cookie.
    const hash = (await t.admin.get('/settings/?group=private')).json().settings.find((s: { key: string }) => s.key === 'public_hash').value as string;
    expect(hash).toMatch(/^[0-9a-f]{30}$/);
    for (const url of [`/${hash}/rss/`, `/tag/news/${hash}/rss/`]) {
      const feed = await t.app.inject({ url });
      expect(feed.statusCode, url).toBe(200);
      expect(feed.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
      expect(feed.body).toContain('<title><![CDATA[Hello world]]></title>');
    }

    // The Content API is unaffected.
    const api = await t.content.get('/posts/');
    expect(api.statusCode).toBe(200);
    expect(api.json().posts.map((p: { slug: string }) => p.slug)).toContain('hello-world');

    // A new password ends every session.
    await setPrivate({ password: 'changed' });
    expect((await t.app.inject({ url: '/hello-world/', headers: { cookie } })).statusCode).toBe(302);

    // Public again: pages open, /private/ sends home.
    await setPrivate({ is_private: false });
    const open = await t.app.inject({ url: '/hello-world/' });
    expect(open.statusCode).toBe(200);
    expect(open.headers['x-robots-tag']).toBeUndefined();
    expect((await t.app.inject({ url: '/private/' })).statusCode).toBe(302);
    expect((await login('changed')).headers.location).toBe('http://127.0.0.1:2368/');
  });

  it("renders the theme's private.hbs when it has one, with {{input_password}} and the error", async () => {
    await setPrivate({ is_private: true, password: 'letmein' });
    const zip = await themeZip('walled', {
      'private.hbs':
        '<h1>{{@site.title}} is closed</h1><form method="post">{{input_password class="pw" placeholder="Secret"}}{{#if error}}<em>{{error.message}}</em>{{/if}}</form>',
    });
    expect((await t.admin.upload('/themes/upload/', { file: { name: 'walled.zip', type: 'application/zip', data: zip } })).statusCode).toBe(200);
    expect((await t.admin.put('/themes/walled/activate/')).statusCode).toBe(200);
    const page = await t.app.inject({ url: '/private/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(
      '<h1>Test Site is closed</h1><form method="post"><input class="pw" type="password" name="password" autofocus="autofocus" placeholder="Secret" /></form>',
    );
    expect((await login('wrong')).body).toContain('<em>Incorrect password.</em>');
    await setPrivate({ is_private: false });
  });

  // Last in this block: it uses up the hour's tries of the tests' one address.
  it("refuses the password form after Ghost's 100 tries per address an hour, even the right password, with its 429 page", async () => {
    await setPrivate({ is_private: true, password: 'letmein' });
    // The earlier tests' tries are forgotten; then every try counts, right or wrong.
    await t.db.deleteFrom('brute').execute();
    for (let i = 0; i < 99; i++) expect((await login('wrong')).statusCode).toBe(200);
    expect((await login('letmein')).statusCode).toBe(302);
    const refused = await login('letmein');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['cache-control']).toBe(NO_STORE);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.body).toContain('<title>429 — Too many private sign-in attempts try again in an hour</title>');
    expect(refused.body).toContain('<h2 class="error-description">Too many private sign-in attempts try again in an hour</h2>');
    // Only the form is limited: the pages still ask for the password.
    expect((await t.app.inject({ url: '/private/' })).statusCode).toBe(200);
    await setPrivate({ is_private: false });
  });
});

describe('draft previews at /p/{uuid}/', () => {
  const t = useTestSite();

  it('renders a draft through the theme, not indexed and never kept, at the URL the Admin API gives it', async () => {
    await installTheme(t, 'source');
    const id = await makePost(t, { title: 'Draft one', status: 'draft', lexical: lexicalDocument(lexicalParagraph('Only for staff so far.')) });
    const admin = (await t.admin.get(`/posts/${id}/`)).json().posts[0] as { url: string; uuid: string };
    expect(admin.url).toBe(`http://127.0.0.1:2368/p/${admin.uuid}/`);
    const res = await t.app.inject({ url: `/p/${admin.uuid}/` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(PREVIEW_CACHE);
    expect(res.body).toContain('<title>Draft one</title>');
    expect(res.body).toContain('Only for staff so far.');
    expect(res.body).toContain('<meta name="robots" content="noindex,nofollow">');
    expect(res.body).toContain('<meta name="referrer" content="same-origin">');
    expect(res.body).toContain('<body class="post-template');
    // The public site does not show it.
    expect((await t.app.inject({ url: '/draft-one/' })).statusCode).toBe(404);
  });

  it('shows members-only drafts as the member status asked for, and everything without one', async () => {
    await installTheme(t, 'source');
    const id = await makePost(t, {
      title: 'Paid draft',
      status: 'draft',
      visibility: 'paid',
      lexical: lexicalDocument(lexicalParagraph('The free part.'), { type: 'paywall', version: 1 }, lexicalParagraph('The paid part.')),
    });
    const { uuid } = (await t.admin.get(`/posts/${id}/`)).json().posts[0] as { uuid: string };
    expect((await t.app.inject({ url: `/p/${uuid}/` })).body).toContain('The paid part.');
    expect((await t.app.inject({ url: `/p/${uuid}/?member_status=paid` })).body).toContain('The paid part.');
    const free = await t.app.inject({ url: `/p/${uuid}/?member_status=free` });
    expect(free.body).toContain('The free part.');
    expect(free.body).not.toContain('The paid part.');
    expect((await t.app.inject({ url: `/p/${uuid}/?member_status=anonymous` })).body).not.toContain('The paid part.');
  });

  it('moves published content to its URL, opens the editor for edit/, and 404s for anything else', async () => {
    const published = await makePost(t, { title: 'Out now', slug: 'out-now', status: 'published' });
    const page = await makePost(t, { title: 'A draft page', status: 'draft' }, 'page');
    const uuidOf = async (path: string) => ((await t.admin.get(path)).json() as Record<string, { uuid: string }[]>)[path.split('/')[1]!]![0]!.uuid;
    const live = await t.app.inject({ url: `/p/${await uuidOf(`/posts/${published}/`)}/` });
    expect(live.statusCode).toBe(301);
    expect(live.headers.location).toBe('/out-now/');
    const pageUuid = await uuidOf(`/pages/${page}/`);
    const pagePreview = await t.app.inject({ url: `/p/${pageUuid}/` });
    expect(pagePreview.statusCode).toBe(200);
    expect(pagePreview.body).toContain('page-template');
    const edit = await t.app.inject({ url: `/p/${pageUuid}/edit/` });
    expect(edit.statusCode).toBe(302);
    expect(edit.headers.location).toBe(`http://127.0.0.1:2368/ghost/#/editor/page/${page}/`);
    expect((await t.app.inject({ url: `/p/${pageUuid}/other/` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/p/00000000-0000-0000-0000-000000000000/' })).statusCode).toBe(404);
  });
});
