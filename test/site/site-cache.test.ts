import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { connect } from '../../src/db/connect.js';
import { storageFor } from '../../src/storage/from-config.js';
import { useTestSite } from '../test-site.js';
import { makePost } from '../factories.js';
import { installTheme } from './site-support.js';

describe('site pages through the page cache', () => {
  const t = useTestSite({ settings: { RESPONSE_CACHE_MB: '8' } });

  it('tags pages, answers 304, and shows a new post at once (the content version moves)', async () => {
    await installTheme(t, 'source');
    await makePost(t, { title: 'First post', status: 'published' });
    const first = await t.app.inject({ url: '/' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-/);
    const again = await t.app.inject({ url: '/' });
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(etag);
    const notModified = await t.app.inject({ url: '/', headers: { 'if-none-match': etag } });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');

    await makePost(t, { title: 'Second post', status: 'published' });
    const after = await t.app.inject({ url: '/' });
    expect(after.body).toContain('Second post');
    expect(after.headers.etag).not.toBe(etag);
  });

  it('never answers a member from the shared cache, nor keeps their page', async () => {
    await installTheme(t, 'source');
    const id = await makePost(t, { title: 'Cached title', status: 'published' });
    expect((await t.app.inject({ url: '/' })).body).toContain('Cached title');
    // A change made behind the service's back (no content version): only the kept page still shows the old title.
    await t.db.updateTable('posts').set({ title: 'Changed title' }).where('id', '=', id).execute();
    expect((await t.app.inject({ url: '/' })).body).toContain('Cached title');
    const member = await t.app.inject({ url: '/', cookies: { 'ghost-members-ssr': 'someone' } });
    expect(member.body).toContain('Changed title');
    expect(member.headers['cache-control']).toBe('private, no-cache, no-store, must-revalidate, max-age=0');
    expect((await t.app.inject({ url: '/' })).body).toContain('Cached title');
  });

  it("renders the Design screen's preview of unsaved settings (Ghost's x-ghost-preview header) without keeping it", async () => {
    await installTheme(t, 'source');
    const saved = await t.app.inject({ url: '/' });
    expect(saved.body).toContain('<header id="gh-navigation" class="gh-navigation is-middle-logo gh-outer">');
    const custom = JSON.stringify({ navigation_layout: 'Stacked', header_text: 'Hello preview', not_a_setting: 'x' });
    const header = `c=%23ff0000&d=Preview%20description&cover=&custom=${encodeURIComponent(custom)}`;
    // The admin app posts the page, with a text/html content type and no body.
    const preview = await t.app.inject({ method: 'POST', url: '/', headers: { 'x-ghost-preview': header, 'content-type': 'text/html;charset=utf-8' } });
    expect(preview.statusCode).toBe(200);
    // @custom and @site as the templates see them: the theme's own settings, the accent colour, the cover cleared.
    expect(preview.body).toContain('<header id="gh-navigation" class="gh-navigation is-stacked gh-outer">');
    expect(preview.body).toContain('<h1 class="gh-header-title is-title">Hello preview</h1>');
    expect(preview.body).toContain('<style>:root {--ghost-accent-color: #ff0000;}</style>');
    expect(preview.body).toContain('data-locale="en" data-accent-color="#ff0000" crossorigin="anonymous">');
    expect(preview.body).not.toContain('class="gh-header-image"');
    expect(preview.body).toContain('Preview description');
    // The page's metadata stays the saved settings', as Ghost's does.
    expect(preview.body).toContain('<meta name="description" content="Thoughts, stories and ideas.">');
    expect(preview.body).not.toContain('content="Preview description"');
    // Never kept: the next visitor gets the saved page, and a post without the header is that page too.
    const after = await t.app.inject({ url: '/' });
    expect(after.body).toBe(saved.body);
    expect(after.headers.etag).toBe(saved.headers.etag);
    expect((await t.app.inject({ method: 'POST', url: '/' })).body).toBe(saved.body);
  });

  it('renders a template error as the theme error page with a 500', async () => {
    const storage = storageFor(t.config);
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'broken', version: '1.0.0', config: { posts_per_page: 5 } }),
      'default.hbs': '<html><body>{{{body}}}</body></html>',
      'index.hbs': '{{!< default}}<main>{{asset}}</main>',
      'post.hbs': '{{!< default}}<article>{{#post}}{{title}}{{/post}}</article>',
      'error.hbs': '{{!< default}}<p class="err">{{statusCode}}: {{message}}</p>',
    };
    for (const [file, text] of Object.entries(files)) await storage.write(`themes/broken/${file}`, text);
    expect((await t.admin.put('/themes/broken/activate/')).statusCode).toBe(200);
    await makePost(t, { title: 'Fine post', status: 'published', slug: 'fine-post' });
    const broken = await t.app.inject({ url: '/' });
    expect(broken.statusCode).toBe(500);
    expect(broken.body).toBe('<html><body><p class="err">500: The server has encountered an error.</p></body></html>');
    expect(broken.headers['cache-control']).toContain('no-store');
    const fine = await t.app.inject({ url: '/fine-post/' });
    expect(fine.statusCode).toBe(200);
    expect(fine.body).toBe('<html><body><article>Fine post</article></body></html>');
    const missing = await t.app.inject({ url: '/missing/' });
    expect(missing.body).toBe('<html><body><p class="err">404: Page not found</p></body></html>');
  });

  it('another instance renders the newly activated theme on its next request', async () => {
    await installTheme(t, 'source');
    await installTheme(t, 'casper', false);
    await makePost(t, { title: 'Shared post', status: 'published' });
    const other = await buildApp({ config: t.config, connection: connect(t.config.databaseUrl, { poolSize: 2 }) });
    try {
      expect((await other.inject({ url: '/' })).body).toContain('/assets/built/source.js');
      expect((await t.admin.put('/themes/casper/activate/')).statusCode).toBe(200);
      const after = await other.inject({ url: '/' });
      expect(after.body).toContain('/assets/built/casper.js');
      expect(after.body).not.toContain('/assets/built/source.js');
    } finally {
      await other.close();
    }
  });
});
