import { describe, expect, it } from 'vitest';
import { useTestSite } from '../test-site.js';
import { makePost, makeTag } from '../factories.js';
import { installTheme } from './site-support.js';

describe('the public site (Source)', () => {
  const t = useTestSite();

  it('renders the home page, a post, a tag and an author page, and 404s through the theme', async () => {
    await installTheme(t, 'source');
    await makeTag(t, { name: 'News', slug: 'news' });
    await makePost(t, { title: 'Hello world', status: 'published', tags: ['News'], custom_excerpt: 'An excerpt' });
    const home = await t.app.inject({ url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.headers['cache-control']).toBe('public, max-age=0');
    expect(home.body).toContain('<body class="home-template');
    expect(home.body).toContain('href="/hello-world/"');
    expect(home.body).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:2368\/">/);

    const post = await t.app.inject({ url: '/hello-world/' });
    expect(post.statusCode).toBe(200);
    expect(post.body).toContain('<body class="post-template tag-news');
    expect(post.body).toContain('<title>Hello world</title>');

    expect((await t.app.inject({ url: '/tag/news/' })).body).toContain('tag-template tag-news');
    expect((await t.app.inject({ url: '/author/owner/' })).statusCode).toBe(200);

    for (const url of ['/nope/', '/tag/nope/', '/page/2/', '/page/99999999999999999999/']) {
      const missing = await t.app.inject({ url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.body).toContain('<h1 class="error-code">404</h1>');
    }
  });

  it("redirects as Ghost does and keeps the APIs' JSON 404s", async () => {
    for (const [from, to] of [
      ['/hello', '/hello/'],
      ['/Hello/', '/hello/'],
      ['/page/1/', '/'],
      ['/tag/news/page/1/', '/tag/news/'],
      ['/hello-world/amp/', '/hello-world/'],
      ['/hello?x=1', '/hello/?x=1'],
    ]) {
      const res = await t.app.inject({ url: from });
      expect(res.statusCode, from).toBe(301);
      expect(res.headers.location, from).toBe(to);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000');
    }
    const api = await t.app.inject({ url: '/ghost/api/content/nothing/' });
    expect(api.statusCode).toBe(404);
    expect(api.json().errors[0].type).toBe('NotFoundError');
  });

  it('serves theme assets with a year of caching and never a file outside the assets folder', async () => {
    await installTheme(t, 'source');
    const css = await t.app.inject({ url: '/assets/built/screen.css?v=abc' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000');
    for (const url of ['/assets/../package.json', '/assets/%2e%2e/package.json', '/assets/..%2fpackage.json', '/assets/%2e%2e%2fdefault.hbs']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('"name": "source"');
    }
  });

  it("serves the card assets and attribution script, and leaves Portal's and search's paths to their owners", async () => {
    for (const [url, type] of [
      ['/public/cards.min.css?v=1', 'text/css'],
      ['/public/cards.min.js?v=1', 'application/javascript'],
      ['/public/member-attribution.min.js?v=1', 'application/javascript'],
      ['/public/ghost.min.css?v=1', 'text/css'],
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(String(res.headers['content-type'])).toContain(type);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000');
    }
    for (const url of ['/members/api/nothing/', '/ghost/api/admin/nothing/']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/json');
    }
  });

  it('answers robots.txt, the favicon and the RSS feed', async () => {
    await installTheme(t, 'source');
    await makePost(t, { title: "It's a feed", status: 'published' });
    const robots = await t.app.inject({ url: '/robots.txt' });
    expect(robots.body).toBe(
      'User-agent: *\nSitemap: http://127.0.0.1:2368/sitemap.xml\nDisallow: /ghost/\nDisallow: /email/\nDisallow: /members/api/comments/counts/\nDisallow: /r/\nDisallow: /webmentions/receive/\n',
    );
    expect((await t.app.inject({ url: '/favicon.ico' })).headers['content-type']).toBe('image/x-icon');
    const rss = await t.app.inject({ url: '/rss/' });
    expect(rss.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(rss.body).toContain("<title><![CDATA[It's a feed]]></title>");
    expect(rss.body).toContain('<atom:link href="http://127.0.0.1:2368/rss/" rel="self" type="application/rss+xml"/>');
  });
});
