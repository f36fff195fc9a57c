import { describe, expect, it } from 'vitest';
import { expectGhostError } from '../../../test/support.js';
import { makePost, makeStaff, makeTag } from '../../../test/factories.js';
import { useSecondInstance, useTestSite } from '../../../test/test-site.js';
import { installTheme } from '../../../test/site/site-support.js';
import { DEFAULT_ROUTES_YAML } from './route-settings.validate.js';

const yamlPart = (text: string, name = 'routes.yaml', type = 'application/octet-stream') => ({ routes: { name, type, data: Buffer.from(text) } });

/** A file the site can show: a second collection for news posts, a channel, a custom route and a feed-like JSON route. */
const ROUTES = `routes:
  /featured/:
    controller: channel
    filter: featured:true
  /about-us/:
    template: tag
    data: tag.news
  /data.json/:
    template: index
    content_type: json
collections:
  /news/:
    permalink: /news/{year}/{slug}/
    filter: tag:news
  /:
    permalink: /{slug}/
    template: index
taxonomies:
  tag: /topic/{slug}/
`;

describe('routes.yaml: GET and POST /settings/routes/yaml/', () => {
  const t = useTestSite();

  const second = useSecondInstance(t);

  it("answers Ghost's default file before any upload", async () => {
    const res = await t.admin.get('/settings/routes/yaml/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('Attachment; filename="routes.yaml"');
    expect(res.body).toBe(DEFAULT_ROUTES_YAML);
  });

  it('stores an upload, answers it back, and every instance routes by it at once', async () => {
    await installTheme(t, 'source');
    await makeTag(t, { name: 'News', slug: 'news' });
    await makePost(t, { title: 'Big news', slug: 'big-news', status: 'published', tags: ['News'], published_at: '2025-03-04T10:00:00.000Z' });
    await makePost(t, { title: 'Plain', slug: 'plain', status: 'published', featured: true });
    // B renders once before the upload, so it holds the old routes until the content version moves.
    expect((await second.app.inject({ url: '/big-news/' })).statusCode).toBe(200);

    const res = await t.admin.upload('/settings/routes/yaml/', yamlPart(ROUTES));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect((await t.admin.get('/settings/routes/yaml/')).body).toBe(ROUTES);

    for (const app of [t.app, second.app]) {
      const moved = await app.inject({ url: '/big-news/?x=1' });
      expect(moved.statusCode).toBe(301);
      expect(moved.headers.location).toBe('/news/2025/big-news/?x=1');
      const post = await app.inject({ url: '/news/2025/big-news/' });
      expect(post.statusCode).toBe(200);
      expect(post.body).toContain('<title>Big news</title>');
      expect(post.body).toContain('href="http://127.0.0.1:2368/news/2025/big-news/"');
      const news = await app.inject({ url: '/news/' });
      expect(news.statusCode).toBe(200);
      expect(news.body).toContain('/news/2025/big-news/');
      expect(news.body).not.toContain('/plain/');
      // The index shows only the posts it owns.
      const home = await app.inject({ url: '/' });
      expect(home.body).toContain('href="/plain/"');
      expect(home.body).not.toContain('href="/big-news/"');
      expect((await app.inject({ url: '/featured/' })).body).toContain('/plain/');
      const feed = await app.inject({ url: '/news/rss/' });
      expect(feed.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
      expect(feed.body).toContain('<link>http://127.0.0.1:2368/news/2025/big-news/</link>');
      const custom = await app.inject({ url: '/about-us/' });
      expect(custom.statusCode).toBe(200);
      expect(custom.body).toContain('News');
      expect((await app.inject({ url: '/data.json/' })).headers['content-type']).toBe('application/json; charset=utf-8');
      // The taxonomy moved to /topic/; its old path is no route any more, and the data route takes the tag's own URL.
      expect((await app.inject({ url: '/tag/news/' })).statusCode).toBe(404);
      const taken = await app.inject({ url: '/topic/news/' });
      expect(taken.statusCode).toBe(301);
      expect(taken.headers.location).toBe('/about-us/');
      // The author taxonomy is not in the file: no author pages.
      expect((await app.inject({ url: '/author/owner/' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/news/2024/big-news/' })).statusCode).toBe(301);
      expect((await app.inject({ url: '/news/2025/no-such-post/' })).statusCode).toBe(404);
    }

    // Back to the defaults: the old paths answer again.
    expect((await t.admin.upload('/settings/routes/yaml/', yamlPart(DEFAULT_ROUTES_YAML))).statusCode).toBe(200);
    expect((await second.app.inject({ url: '/big-news/' })).statusCode).toBe(200);
    expect((await second.app.inject({ url: '/news/' })).statusCode).toBe(404);
  });

  it("refuses a bad file with Ghost's errors and keeps the routes in effect", async () => {
    const cases: [string, Parameters<typeof expectGhostError>[1]][] = [
      [
        'collections:\n  /blog: {permalink: /blog/{slug}/}',
        {
          status: 400,
          type: 'IncorrectUsageError',
          message: 'Could not parse provided YAML file: missed comma between flow collection entries.',
          code: 'YAML_PARSER_ERROR',
          help: 'Check provided file for typos and fix the named issues.',
          context:
            'missed comma between flow collection entries (2:28)\n\n 1 | collections:\n 2 |   /blog: {permalink: /blog/{slug}/}\n--------------------------------^',
        },
      ],
      [
        'collections:\n  /blog/: {template: x}',
        {
          status: 422,
          type: 'ValidationError',
          message: 'The following definition "/blog/" is invalid: Please define a permalink route.',
          help: 'e.g. permalink: /{slug}/',
        },
      ],
      [
        'just a string',
        {
          status: 400,
          type: 'IncorrectUsageError',
          message: 'YAML input cannot be a plain string. Check the format of your YAML file.',
          help: 'https://ghost.org/docs/themes/routing/',
        },
      ],
      [
        'taxonomies:\n  category: /c/{slug}/\n',
        { status: 422, type: 'ValidationError', message: 'The following definition "category" is invalid: Unknown taxonomy.' },
      ],
      [
        'taxonomies:\n  tag: /c/{slug}\n',
        { status: 422, type: 'ValidationError', message: 'The following definition "/c/{slug}" is invalid: A trailing slash is required.' },
      ],
      [
        'routes:\n  /x/:\n    data: {resource: tags}',
        { status: 422, type: 'ValidationError', message: 'The request failed validation.', help: 'Example:\n data:\n  my-tag:\n    resource: tags\n    ...\n' },
      ],
      [
        'routes:\n  /x/:\n    data: {t: {resource: tags, type: read}, u: {resource: foo, type: read}}',
        {
          status: 422,
          type: 'ValidationError',
          message:
            'The following definition "{"resource":"foo","type":"read"}" is invalid: foo not supported. Please use tags,authors,posts,pages,previews,email_posts.',
        },
      ],
      [
        'routes:\n  /x/:\n    data: tagrecipes',
        { status: 422, message: 'The following definition "tagrecipes" is invalid: Incorrect Format. Please use e.g. tag.recipes' },
      ],
      ['routes:\n  /x/:\n    data: foo.recipes', { status: 422, message: 'Resource key not supported. foo', help: 'Please use: tag, user, post or page.' }],
      ['routes:\n  /x/:', { status: 422, message: 'The following definition "/x/" is invalid: Please define a template.', help: 'e.g. /about/: about' }],
      ['routes: 5', { status: 422, message: 'The following definition "5" is invalid: `routes` must be a YAML map.' }],
      [
        'collections:\n  /b/: {permalink: /b/:slug/}',
        { status: 422, message: 'The following definition "/b/:slug/" is invalid: Please use the following notation e.g. /{slug}/.' },
      ],
    ];
    for (const [text, expected] of cases) expectGhostError(await t.admin.upload('/settings/routes/yaml/', yamlPart(text)), expected);
    expect((await t.admin.get('/settings/routes/yaml/')).body).toBe(DEFAULT_ROUTES_YAML);
    expect((await t.app.inject({ url: '/big-news/' })).statusCode).toBe(200);
  });

  it("refuses a missing or wrong file with the upload's messages", async () => {
    expectGhostError(await t.admin.upload('/settings/routes/yaml/', yamlPart('x', 'routes.json')), {
      status: 415,
      type: 'UnsupportedMediaTypeError',
      message: 'Please select a valid YAML file to import.',
    });
    expectGhostError(await t.admin.upload('/settings/routes/yaml/', { title: 'nothing' }), {
      status: 422,
      type: 'ValidationError',
      message: 'Please select a YAML file.',
    });
  });

  it('lets staff below Administrator read the file but not replace it, and integrations neither upload', async () => {
    const editor = await t.session(await makeStaff(t, 'Editor'));
    expect((await t.admin.get('/settings/routes/yaml/', editor)).statusCode).toBe(200);
    expectGhostError(await t.admin.upload('/settings/routes/yaml/', yamlPart(ROUTES), editor), { status: 403, type: 'NoPermissionError' });
    expect((await t.admin.get('/settings/routes/yaml/', t.integration())).statusCode).toBe(200);
    expectGhostError(await t.admin.upload('/settings/routes/yaml/', yamlPart(ROUTES), t.integration()), { status: 501, type: 'NotImplementedError' });
    expect((await t.admin.get('/settings/routes/yaml/')).body).toBe(DEFAULT_ROUTES_YAML);
  });

  it('answers 404 for a routes path Ghost does not have', async () => {
    expectGhostError(await t.admin.get('/settings/routes/json/'), { status: 404, type: 'NotFoundError' });
  });
});
