import { describe, expect, it } from 'vitest';
import { storageFor } from '../../src/storage/from-config.js';
import { useTestSite, type TestSite } from '../test-site.js';
import { makePost, makeTag } from '../factories.js';

/** A theme of our own whose templates exercise helpers, stored and activated as an upload would be. */
async function helperTheme(t: TestSite, templates: Record<string, string>) {
  const storage = storageFor(t.config);
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'helpers', version: '1.0.0', config: { posts_per_page: 3, image_sizes: { m: { width: 600 } } } }),
    'default.hbs': '<html>{{{body}}}{{{block "extra"}}}</html>',
    'post.hbs': '{{!< default}}{{#post}}{{title}}{{/post}}',
    'locales/en.json': JSON.stringify({ Hello: 'Hi {name}' }),
    ...templates,
  };
  for (const [file, text] of Object.entries(files)) await storage.write(`themes/helpers/${file}`, text);
  expect((await t.admin.put('/themes/helpers/activate/')).statusCode).toBe(200);
}

describe('helpers (through a theme of their own)', () => {
  const t = useTestSite();

  it('answers as Ghost helpers do', async () => {
    await makeTag(t, { name: 'Alpha', slug: 'alpha' });
    await makeTag(t, { name: 'Beta', slug: 'beta' });
    for (const n of [1, 2, 3, 4]) {
      await makePost(t, {
        title: `P${n}`,
        slug: `p${n}`,
        status: 'published',
        published_at: `2026-01-0${n}T10:00:00.000Z`,
        tags: n % 2 ? ['Alpha'] : ['Beta', 'Alpha'],
        feature_image: n === 1 ? '/content/images/2026/01/a.jpg' : null,
      });
    }
    const lines = [
      '[{{plural 0 empty="none" singular="% post" plural="% posts"}}|{{plural 1 empty="none" singular="% post" plural="% posts"}}|{{plural pagination.total empty="none" singular="% post" plural="% posts"}}]',
      '[{{price 1500 currency="USD"}}|{{price 1999 currency="EUR" numberFormat="long"}}]',
      '[{{#foreach posts limit="2"}}{{@index}}:{{title}}{{#if @first}}^{{/if}}{{#if @last}}${{/if}} {{/foreach}}]',
      '[{{#foreach posts from="2" to="3"}}{{title}}{{#if @first}}^{{/if}} {{/foreach}}]',
      '[{{#match pagination.total ">" 2}}many{{else}}few{{/match}}|{{match 1 "=" 2}}|{{#match "abc" "~^" "ab"}}starts{{/match}}]',
      '[{{concat "a" "b" separator="-"}}|{{encode "a b&c"}}|{{#is "home"}}home{{/is}}{{#is "tag, paged"}}no{{/is}}]',
      '[{{t "Hello" name="you"}}|{{t "Untranslated"}}]',
      '[{{#get "tags" limit="all" order="name asc"}}{{#foreach tags}}{{name}};{{/foreach}}{{/get}}|{{#get "posts" filter="tag:beta" limit="5"}}{{posts.length}}{{/get}}|{{#get "nothing"}}x{{else}}none{{/get}}]',
      '[{{#foreach posts limit="1"}}{{img_url feature_image size="m"}}|{{img_url feature_image absolute="true"}}|{{tags separator=" / "}}|{{tags autolink="false"}}|{{post_class}}|{{date format="YYYY-MM-DD"}}{{/foreach}}]',
      '[{{#foreach posts limit="1"}}{{#has tag="alpha"}}has-alpha{{/has}}{{#has tag="count:>1"}}two-tags{{else}}one-tag{{/has}}{{#has slug="p4"}} p4{{/has}}{{/foreach}}]',
      '[{{total_members}}|{{readable_url "https://www.example.com/"}}|{{page_url 2}}|{{#link href="/"}}home{{/link}}|{{link_class for="/tag/x/"}}]',
      '[{{#get "posts" filter="slug:p1"}}{{#foreach posts}}{{img_url feature_image size="m"}}|{{img_url feature_image absolute="true"}}{{/foreach}}{{/get}}]',
      '{{#contentFor "extra"}}<i>X</i>{{/contentFor}}',
    ];
    await helperTheme(t, { 'index.hbs': `{{!< default}}\n${lines.join('\n')}` });
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body.split('\n')).toEqual([
      // The layout declaration's line is standalone: no newline before the first line.
      '<html>[none|1 post|4 posts]',
      '[$15|€19.99]',
      '[0:P4^ 1:P3$ ]',
      '[P3^ P2 ]',
      '[many|false|starts]',
      '[a-b|a%20b%26c|home]',
      '[Hi you|Untranslated]',
      '[Alpha;Beta;|2|none]',
      '[||<a href="/tag/beta/">Beta</a> / <a href="/tag/alpha/">Alpha</a>|Beta, Alpha|post tag-beta tag-alpha no-image|2026-01-04]',
      '[has-alphatwo-tags p4]',
      '[0|example.com|/page/2/|<a class="nav-current" href="/">home</a>|]',
      '[/content/images/size/w600/2026/01/a.jpg|http://127.0.0.1:2368/content/images/2026/01/a.jpg]',
      '<i>X</i></html>',
    ]);
  });

  it('prints the announcement bar script once the announcement has content and a visibility, and in a preview that gives both', async () => {
    await helperTheme(t, { 'index.hbs': '{{!< default}}{{ghost_head}}' });
    const script = (body: string) => /<script defer src="[^"]*announcement-bar[^>]*><\/script>/.exec(body)?.[0];
    expect(script((await t.app.inject({ url: '/' })).body)).toBeUndefined();
    const settings = (values: Record<string, unknown>) =>
      t.admin.put('/settings/', { settings: Object.entries(values).map(([key, value]) => ({ key, value })) });
    expect((await settings({ announcement_content: '<p>Big news</p>', announcement_visibility: [] })).statusCode).toBe(200);
    expect(script((await t.app.inject({ url: '/' })).body)).toBeUndefined();
    expect((await settings({ announcement_visibility: ['visitors'] })).statusCode).toBe(200);
    // Ghost's tag, the script served by this site instead of Ghost's CDN.
    expect(script((await t.app.inject({ url: '/' })).body)).toBe(
      '<script defer src="http://127.0.0.1:2368/public/announcement-bar/announcement-bar.min.js" data-announcement-bar="http://127.0.0.1:2368/" ' +
        'data-api-url="http://127.0.0.1:2368/members/api/announcement/" crossorigin="anonymous"></script>',
    );
    const preview = (header: string) => t.app.inject({ method: 'POST', url: '/', headers: { 'x-ghost-preview': header } });
    expect(script((await preview('announcement=Hi%20%3Cthere%3E&announcement_bg=dark&announcement_vis=visitors')).body)).toBe(
      '<script defer src="http://127.0.0.1:2368/public/announcement-bar/announcement-bar.min.js" data-announcement-bar="http://127.0.0.1:2368/" ' +
        'data-api-url="http://127.0.0.1:2368/members/api/announcement/" data-announcement="Hi &lt;there&gt;" data-announcement-background="dark" ' +
        'data-preview="true" crossorigin="anonymous"></script>',
    );
    // A preview without a visibility shows no bar, whatever is saved.
    expect(script((await preview('announcement=Hi')).body)).toBeUndefined();
    expect((await settings({ announcement_content: null, announcement_visibility: [] })).statusCode).toBe(200);
  });

  it("prints Ghost's custom fonts: the saved ones, a Design screen preview's instead, nothing for a font Ghost does not offer", async () => {
    await helperTheme(t, { 'index.hbs': '{{!< default}}[{{body_class}}]{{ghost_head}}' });
    const fontsOf = (body: string) => ({
      classes: /\[([^\]]*)\]/.exec(body)![1],
      css: body.slice(body.indexOf('<link rel="preconnect" href="https://fonts.bunny.net">')),
    });
    const none = await t.app.inject({ url: '/' });
    expect(none.body).not.toContain('fonts.bunny.net');
    expect(fontsOf(none.body).classes).toBe('home-template');

    const saved = await t.admin.put('/settings/', {
      settings: [
        { key: 'heading_font', value: 'Space Grotesk' },
        { key: 'body_font', value: 'Lora' },
      ],
    });
    expect(saved.statusCode).toBe(200);
    // Ghost 5.130's page for these two settings (@tryghost/custom-fonts 1.0.2).
    expect(fontsOf((await t.app.inject({ url: '/' })).body)).toEqual({
      classes: 'home-template gh-font-heading-space-grotesk gh-font-body-lora',
      css:
        '<link rel="preconnect" href="https://fonts.bunny.net"><link rel="stylesheet" href="https://fonts.bunny.net/css?family=space-grotesk:700|lora:400,700">' +
        '<style>:root {--gh-font-heading: Space Grotesk;--gh-font-body: Lora;}</style></html>',
    });
    // A preview takes its own fonts, an empty one included (the heading font is cleared here).
    const preview = await t.app.inject({ method: 'POST', url: '/', headers: { 'x-ghost-preview': 'bf=Inter&hf=' } });
    expect(fontsOf(preview.body).classes).toBe('home-template gh-font-body-inter');
    expect(preview.body).toContain('<style>:root {--gh-font-body: Inter;}</style>');
    expect((await t.app.inject({ method: 'POST', url: '/', headers: { 'x-ghost-preview': 'bf=Comic%20Sans&hf=' } })).body).not.toContain('fonts.bunny.net');
  });
});
