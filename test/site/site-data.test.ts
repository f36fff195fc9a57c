import { describe, expect, it } from 'vitest';
import { useTestSite } from '../test-site.js';
import { makePost } from '../factories.js';
import { installTheme } from './site-support.js';

/** Every page a change shows on: the list, a post (its "Read more" block is a `{{#get}}`), a tag page and the feed. */
const PAGES = ['/', '/older/', '/tag/news/', '/rss/'];

describe('site data with the page cache off', () => {
  const t = useTestSite({ settings: { RESPONSE_CACHE_MB: '0' } });

  it('reads posts and settings once per content version, and shows a change on every page at once', async () => {
    await installTheme(t, 'source');
    const older = await makePost(t, { title: 'Older post', slug: 'older', status: 'published', tags: ['News'] });
    for (const url of PAGES) expect((await t.app.inject({ url })).body, url).toContain('Older post');

    // Behind the service's back (no content version): the data read at this version still answers.
    await t.db.updateTable('posts').set({ title: 'Quietly renamed' }).where('id', '=', older).execute();
    for (const url of PAGES) expect((await t.app.inject({ url })).body, url).toContain('Older post');
    // A member's page reads for itself.
    expect((await t.app.inject({ url: '/', cookies: { 'ghost-members-ssr': 'someone' } })).body).toContain('Quietly renamed');

    // Through the service: the version moves and every page shows the new post, the renamed one and the new title.
    await makePost(t, { title: 'Newer post', slug: 'newer', status: 'published', tags: ['News'] });
    const settings = await t.admin.put('/settings/', { settings: [{ key: 'title', value: 'Renamed site' }] });
    expect(settings.statusCode).toBe(200);
    for (const url of PAGES) {
      const page = (await t.app.inject({ url })).body;
      expect(page, url).toContain('Newer post');
      expect(page, url).toContain('Renamed site');
      if (url !== '/older/') expect(page, url).toContain('Quietly renamed');
    }
  });

  it('renders the same page twice alike, and a post with its related posts', async () => {
    await installTheme(t, 'source');
    await makePost(t, { title: 'One', slug: 'one', status: 'published', custom_excerpt: 'The first.' });
    await makePost(t, { title: 'Two', slug: 'two', status: 'published' });
    const first = await t.app.inject({ url: '/two/' });
    const second = await t.app.inject({ url: '/two/' });
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(first.body).toContain('<h2 class="gh-container-title">Read more</h2>');
    expect(first.body).toContain('The first.');
  });

  it("reads for itself on a draft preview and on a private site's pages, never the data kept for visitors", async () => {
    await installTheme(t, 'source');
    const older = await makePost(t, { title: 'Older post', slug: 'older', status: 'published' });
    const draft = await makePost(t, { title: 'Draft one', status: 'draft' });
    const uuid = ((await t.admin.get(`/posts/${draft}/`)).json().posts[0] as { uuid: string }).uuid;
    expect((await t.app.inject({ url: '/' })).body).toContain('Older post');

    // Behind the service's back (no content version): visitors keep the version's data; a preview reads the
    // draft and its "Read more" posts for itself.
    await t.db.updateTable('posts').set({ title: 'Quietly renamed' }).where('id', '=', older).execute();
    await t.db.updateTable('posts').set({ title: 'Draft renamed' }).where('id', '=', draft).execute();
    expect((await t.app.inject({ url: '/' })).body).toContain('Older post');
    const preview = await t.app.inject({ url: `/p/${uuid}/` });
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('<title>Draft renamed</title>');
    expect(preview.body).toContain('Quietly renamed');
    expect((await t.app.inject({ url: '/' })).body).not.toContain('Draft renamed');

    // A private site's visitor who gave the password reads for themselves too.
    const settings = await t.admin.put('/settings/', {
      settings: [
        { key: 'is_private', value: true },
        { key: 'password', value: 'letmein' },
      ],
    });
    expect(settings.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/private/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'password=letmein',
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    expect((await t.app.inject({ url: '/', headers: { cookie } })).body).toContain('Quietly renamed');
    await t.db.updateTable('posts').set({ title: 'Renamed again' }).where('id', '=', older).execute();
    const page = await t.app.inject({ url: '/', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Renamed again');
  });
});
