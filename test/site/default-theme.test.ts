import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { DEFAULT_THEME_DIR, DEFAULT_THEME_FILES } from '../../src/resources/themes/default-theme.js';
import { lexicalOf, makePage, makePost, makeTag } from '../factories.js';
import { cookiesOf, followMagicLink } from '../members-support.js';
import { MailSink } from '../mail-support.js';
import { storageFor } from '../../src/storage/from-config.js';
import { useTestSite } from '../test-site.js';

/**
 * Quire's own theme (`themes/quire/`), active on a fresh site: the pages a reader sees, read as a browser
 * reads them (landmarks, headings, links, forms), and Ghost's theme checker on its files.
 */
const require = createRequire(import.meta.url);
const mail = new MailSink();
beforeAll(() => mail.start());
afterAll(() => mail.stop());
const t = useTestSite({ settings: () => ({ MAIL_SMTP_URL: mail.url }) });

async function page(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ url, headers });
  const doc = new JSDOM(res.body).window.document;
  const texts = (selector: string) => [...doc.querySelectorAll(selector)].map((node) => node.textContent!.replace(/\s+/g, ' ').trim());
  const attrs = (selector: string, name: string) => [...doc.querySelectorAll(selector)].map((node) => node.getAttribute(name));
  return { res, doc, texts, attrs };
}

/** What every page of the theme has: a skip link to the main landmark, the header with both menus, the footer. */
function expectFrame({ doc, texts, attrs }: Awaited<ReturnType<typeof page>>) {
  expect(attrs('a.skip-link', 'href')).toEqual(['#main']);
  expect(doc.querySelector('main#main')).not.toBeNull();
  expect(doc.querySelector('header.site-header')).not.toBeNull();
  expect(doc.querySelector('footer.site-footer')).not.toBeNull();
  expect(texts('nav[aria-label="Main"] a')).toEqual(['Home', 'About']);
  expect(attrs('nav[aria-label="Footer"] a', 'href')).toEqual(['#/portal/']);
  expect(attrs('link[rel="stylesheet"]', 'href')[0]).toMatch(/^\/assets\/css\/screen\.css\?v=\w+$/);
  expect(doc.querySelectorAll('h1')).toHaveLength(1);
}

describe('the default theme on a fresh site', () => {
  it('is the active theme, and renders an empty home page with the sign-up form and Portal links', async () => {
    expect((await t.admin.get('/themes/active/')).json().themes[0]).toMatchObject({ name: 'quire', package: { name: 'quire' } });
    const home = await page('/');
    expect(home.res.statusCode).toBe(200);
    expectFrame(home);
    expect(home.texts('h1')).toEqual(['Test Site']);
    expect(home.texts('.hero-description')).toEqual(['Thoughts, stories and ideas.']);
    expect(home.attrs('nav[aria-label="Main"] a[aria-current="page"]', 'href')).toEqual(['http://127.0.0.1:2368/']);
    const form = home.doc.querySelector('form[data-members-form="signup"]')!;
    expect(form).not.toBeNull();
    expect(form.querySelector('input[type="email"][data-members-email]')!.id).toBe('signup-email-hero');
    expect(form.querySelector('label[for="signup-email-hero"]')!.textContent).toBe('Your email address');
    expect(home.attrs('[data-portal]', 'href')).toEqual(['#/portal/signin', '#/portal/signup']);
    expect(home.texts('.feed-empty')).toEqual(['Nothing published yet. Check back soon.']);
    // Ghost's head and foot: the Portal script, the accent colour, the theme's own stylesheet and no other.
    expect(home.res.body).toContain('/public/portal/portal.min.js');
    expect(home.res.body).toContain('--ghost-accent-color: #FF1A75');
    expect(home.res.body).not.toMatch(/fonts\.(googleapis|bunny)|use\.typekit/);
  });

  it('renders home with paging, a post, a page, a tag page, an author page and a 404', async () => {
    await makeTag(t, { name: 'News', slug: 'news', description: 'What is new here' });
    for (let i = 1; i <= 13; i++) {
      await makePost(t, {
        title: `Story ${i}`,
        slug: `story-${i}`,
        status: 'published',
        tags: ['News'],
        custom_excerpt: `Excerpt of story ${i}`,
        published_at: new Date(Date.UTC(2026, 0, i)).toISOString(),
        ...(i === 13 ? { feature_image: '/content/images/2026/01/cover.jpg', feature_image_alt: 'A harbour at dawn' } : {}),
        lexical: lexicalOf(`The body of story ${i}.`),
      });
    }
    await makePage(t, { title: 'About us', slug: 'about', status: 'published', lexical: lexicalOf('Who we are.') });

    const home = await page('/');
    expectFrame(home);
    const titles = home.texts('.post-card-title');
    expect(titles).toHaveLength(12);
    expect(titles[0]).toBe('Story 13');
    expect(home.attrs('.post-card-link', 'href')[0]).toBe('/story-13/');
    expect(home.texts('.post-card-excerpt')[0]).toBe('Excerpt of story 13');
    // Feature images in the theme's sizes (`config.image_sizes`), as responsive candidates.
    expect(home.attrs('.post-card-image', 'srcset')).toEqual([
      '/content/images/size/w600/2026/01/cover.jpg 600w, /content/images/size/w1000/2026/01/cover.jpg 1000w',
    ]);
    expect(home.texts('.pagination-number')).toEqual(['Page 1 of 2']);
    expect(home.attrs('.pagination a[rel="next"]', 'href')).toEqual(['/page/2/']);

    const second = await page('/page/2/');
    expect(second.res.statusCode).toBe(200);
    expect(second.texts('h1')).toEqual(['Test Site']);
    expect(second.texts('.post-card-title')).toEqual(['Story 1']);
    expect(second.attrs('.pagination a[rel="prev"]', 'href')).toEqual(['/']);

    const post = await page('/story-13/');
    expect(post.res.statusCode).toBe(200);
    expectFrame(post);
    expect(post.texts('h1')).toEqual(['Story 13']);
    expect(post.doc.title).toBe('Story 13');
    expect(post.texts('.gh-content p')).toEqual(['The body of story 13.']);
    expect(post.attrs('.article-tag', 'href')).toEqual(['/tag/news/']);
    expect(post.attrs('.article-meta a', 'href')).toEqual(['/author/owner/']);
    expect(post.texts('.article-meta time')[0]).toBe('13 January 2026');
    expect(post.attrs('.article-image img', 'alt')).toEqual(['A harbour at dawn']);
    expect(post.attrs('.article-image img', 'src')).toEqual(['/content/images/size/w1600/2026/01/cover.jpg']);
    expect(post.texts('.signup-box h2')).toEqual(['Subscribe to Test Site']);
    expect(post.doc.querySelectorAll('.signup-box form[data-members-form="signup"]')).toHaveLength(1);
    expect(post.texts('.related-item-title')).toEqual(['Story 12', 'Story 11', 'Story 10']);

    const about = await page('/about/');
    expect(about.res.statusCode).toBe(200);
    expectFrame(about);
    expect(about.texts('h1')).toEqual(['About us']);
    expect(about.texts('.gh-content p')).toEqual(['Who we are.']);
    expect(about.attrs('nav[aria-label="Main"] a[aria-current="page"]', 'href')).toEqual(['http://127.0.0.1:2368/about/']);

    const tag = await page('/tag/news/');
    expect(tag.res.statusCode).toBe(200);
    expectFrame(tag);
    expect(tag.texts('h1')).toEqual(['News']);
    expect(tag.texts('.page-subtitle')).toEqual(['What is new here']);
    expect(tag.texts('.page-count')).toEqual(['13 posts']);
    expect(tag.texts('.post-card-title')).toHaveLength(12);
    expect(tag.attrs('.pagination a[rel="next"]', 'href')).toEqual(['/tag/news/page/2/']);
    expect((await page('/tag/news/page/2/')).texts('.post-card-title')).toEqual(['Story 1']);

    const author = await page('/author/owner/');
    expect(author.res.statusCode).toBe(200);
    expectFrame(author);
    expect(author.texts('h1')).toEqual(['Owner Person']);
    expect(author.attrs('.author-links a', 'href')).toContain('/author/owner/rss/');
    expect(author.texts('.post-card-title')).toHaveLength(12);

    for (const url of ['/no-such-story/', '/tag/nothing/', '/page/3/']) {
      const missing = await page(url);
      expect(missing.res.statusCode, url).toBe(404);
      expectFrame(missing);
      expect(missing.texts('h1'), url).toEqual(['Page not found']);
      expect(missing.attrs('.error-page a', 'href')).toEqual(['http://127.0.0.1:2368']);
    }
  });

  it('gates a members-only post with a sign-up and a sign-in form, and shows a signed-in member their account link', async () => {
    const res = await t.admin.post('/posts/', {
      posts: [{ title: 'For members', slug: 'for-members', status: 'published', visibility: 'members', lexical: lexicalOf('Members read this.') }],
    });
    expect(res.statusCode).toBe(201);
    const visitor = await page('/for-members/');
    expect(visitor.res.statusCode).toBe(200);
    expect(visitor.res.body).not.toContain('Members read this.');
    expect(visitor.texts('.content-cta h2')).toEqual(['This post is for subscribers only']);
    expect(visitor.attrs('.content-cta [data-portal]', 'href')).toEqual(['#/portal/signup']);
    expect(visitor.doc.querySelectorAll('.content-cta form[data-members-form="signin"] input[data-members-email]')).toHaveLength(1);
    expect(visitor.doc.querySelector('label[for="signin-email"]')).not.toBeNull();
    expect((await page('/')).texts('.post-card-access')).toEqual(['Members only']);

    const cookie = cookiesOf((await followMagicLink(t.app, mail, { email: 'reader@example.com', emailType: 'signup' }, '10.8.0.1')).opened);
    const member = await page('/for-members/', { cookie });
    expect(member.texts('.gh-content p')).toEqual(['Members read this.']);
    expect(member.doc.querySelector('.content-cta')).toBeNull();
    expect(member.attrs('.site-actions [data-portal]', 'href')).toEqual(['#/portal/account']);
    // No sign-up offered to someone who has signed up.
    expect(member.doc.querySelector('form[data-members-form="signup"]')).toBeNull();
    expect((await page('/', { cookie })).doc.querySelector('form[data-members-form="signup"]')).toBeNull();
  });

  it('offers no sign-up or sign-in when the site takes no members', async () => {
    const off = await t.admin.put('/settings/', { settings: [{ key: 'members_signup_access', value: 'none' }] });
    expect(off.statusCode).toBe(200);
    const home = await page('/');
    expect(home.res.statusCode).toBe(200);
    expect(home.doc.querySelector('[data-members-form]')).toBeNull();
    expect(home.doc.querySelector('.site-actions [data-portal]')).toBeNull();
    expect(home.texts('h1')).toEqual(['Test Site']);
    await t.admin.put('/settings/', { settings: [{ key: 'members_signup_access', value: 'all' }] });
  });

  it('offers sign-in but no sign-up on an invite-only site, and names paid posts in the call to action', async () => {
    await t.admin.put('/settings/', { settings: [{ key: 'members_signup_access', value: 'invite' }] });
    const home = await page('/');
    expect(home.attrs('.site-actions [data-portal]', 'href')).toEqual(['#/portal/signin']);
    expect(home.doc.querySelector('form[data-members-form="signup"]')).toBeNull();
    await t.admin.put('/settings/', { settings: [{ key: 'members_signup_access', value: 'all' }] });
    await makePost(t, { title: 'Paid only', slug: 'paid-only', status: 'published', visibility: 'paid', lexical: lexicalOf('For paying readers.') });
    const paid = await page('/paid-only/');
    expect(paid.texts('.content-cta h2')).toEqual(['This post is for paying subscribers only']);
    expect(paid.res.body).not.toContain('For paying readers.');
  });

  it('follows its custom settings: dark scheme, cover header, grid, no sign-up on home or after posts, no related posts', async () => {
    // The same theme with other defaults (what a publisher's choices in the Design screen become), stored and activated.
    const storage = storageFor(t.config);
    for (const [file, text] of DEFAULT_THEME_FILES) {
      let content = text;
      if (file === 'package.json') {
        const pkg = JSON.parse(text) as { name: string; config: { custom: Record<string, { default: unknown }> } };
        pkg.name = 'quire-chosen';
        const chosen: Record<string, unknown> = {
          color_scheme: 'Dark',
          header_style: 'Cover',
          show_signup_on_home: false,
          feed_layout: 'Grid',
          show_post_signup: false,
          show_related_posts: false,
        };
        for (const [key, value] of Object.entries(chosen)) pkg.config.custom[key]!.default = value;
        content = JSON.stringify(pkg);
      }
      await storage.write(`themes/quire-chosen/${file}`, Buffer.from(content));
    }
    expect((await t.admin.put('/themes/quire-chosen/activate/')).statusCode).toBe(200);
    await t.admin.put('/settings/', {
      settings: [
        { key: 'cover_image', value: '/content/images/2026/01/cover.jpg' },
        { key: 'logo', value: '/content/images/2026/01/logo.png' },
      ],
    });
    try {
      const home = await page('/');
      expect(home.doc.documentElement.getAttribute('data-color-scheme')).toBe('Dark');
      expect(home.doc.querySelector('.hero')!.className).toBe('hero hero-Cover');
      expect(home.attrs('img.hero-cover', 'src')).toEqual(['/content/images/size/w1600/2026/01/cover.jpg']);
      expect(home.attrs('img.hero-cover', 'alt')).toEqual(['']);
      expect(home.texts('h1')).toEqual(['Test Site']);
      // The logo replaces the title in the header, named by the title.
      expect(home.attrs('.site-brand img', 'alt')).toEqual(['Test Site']);
      expect(home.attrs('.site-brand img', 'src')).toEqual(['/content/images/size/w600/2026/01/logo.png']);
      expect(home.doc.querySelector('.site-brand .site-title')).toBeNull();
      expect(home.doc.querySelector('.hero form')).toBeNull();
      expect(home.doc.querySelector('.post-feed')!.className).toBe('post-feed feed-Grid');
      const post = await page('/story-13/');
      expect(post.texts('h1')).toEqual(['Story 13']);
      expect(post.doc.querySelector('.signup-box')).toBeNull();
      expect(post.doc.querySelector('.related')).toBeNull();
    } finally {
      await t.admin.put('/settings/', { settings: [{ key: 'logo', value: '' }] });
      await t.admin.put('/themes/quire/activate/');
    }
  });

  it("serves the theme's stylesheet, small, from the install", async () => {
    const home = await page('/');
    const href = home.attrs('link[rel="stylesheet"]', 'href')[0]!;
    const css = await t.app.inject({ url: href });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toBe(DEFAULT_THEME_FILES.get('assets/css/screen.css'));
    // A budget, so the theme stays fast: one stylesheet, no script of its own.
    expect(css.rawPayload.length).toBeLessThan(24 * 1024);
    expect([...DEFAULT_THEME_FILES.keys()].filter((file) => file.endsWith('.js'))).toEqual([]);
  });
});

describe("Ghost's theme checker (gscan 4.49.7) on the default theme", () => {
  it('finds no error, warning or recommendation', async () => {
    const gscan = require('gscan') as {
      check(dir: string, options: object): Promise<unknown>;
      format(theme: unknown, options: object): { results: Record<'error' | 'warning' | 'recommendation', { code: string }[]> & { hasFatalErrors: boolean } };
    };
    const { results } = gscan.format(await gscan.check(DEFAULT_THEME_DIR, { checkVersion: 'v5' }), { onlyFatalErrors: false, checkVersion: 'v5' });
    expect({ errors: results.error, warnings: results.warning, recommendations: results.recommendation }).toEqual({
      errors: [],
      warnings: [],
      recommendations: [],
    });
    expect(results.hasFatalErrors).toBe(false);
    // Every template a Ghost theme has is there.
    expect([...DEFAULT_THEME_FILES.keys()]).toEqual(
      expect.arrayContaining(['index.hbs', 'post.hbs', 'page.hbs', 'tag.hbs', 'author.hbs', 'error.hbs', 'error-404.hbs', 'default.hbs']),
    );
  }, 60_000);
});
