import { describe, expect, it } from 'vitest';
import { ghostError, expectGhostError, expectRefused } from '../../../test/support.js';
import { first, tableCounts } from '../../../test/posts-support.js';
import { useTestSite, itAnswersNotFound } from '../../../test/test-site.js';

const t = useTestSite({ caller: 'integration' });
const UNKNOWN = '6b01a0b05973b53791bbe3ff';
const STALE = '2020-01-01T00:00:00.000Z';
const long = (n: number) => 'x'.repeat(n);

/** [label, field values, context, property] — each write fails with 422 and Ghost's wording. */
const FIELD_CASES: [string, Record<string, unknown>, string, string | null][] = [
  ['title not a string', { title: 5 }, 'Validation failed for title.', 'title'],
  ['title over 2000', { title: long(2001) }, 'Validation failed for title.', 'title'],
  ['title over 255', { title: long(256) }, 'Value in [posts.title] exceeds maximum length of 255 characters. posts.title', null],
  ['title of spaces', { title: '   ' }, 'Value in [posts.title] cannot be blank. posts.title', null],
  ['slug over 191', { title: 'a', slug: long(192) }, 'Validation failed for slug.', 'slug'],
  ['lexical not JSON', { title: 'a', lexical: '{nope' }, 'Validation failed for lexical.', 'lexical'],
  ['mobiledoc not JSON', { title: 'a', mobiledoc: '{nope' }, 'Validation failed for mobiledoc.', 'mobiledoc'],
  ['feature_image not a URL', { title: 'a', feature_image: 'not a url' }, 'Validation failed for feature_image.', 'feature_image'],
  ['canonical_url not a URL', { title: 'a', canonical_url: 'a b' }, 'Validation failed for canonical_url.', 'canonical_url'],
  ['featured not a boolean', { title: 'a', featured: 'yes' }, 'Validation failed for featured.', 'featured'],
  ['unknown status', { title: 'a', status: 'nope' }, 'Validation failed for status.', 'status'],
  ['locale over 6', { title: 'a', locale: long(7) }, 'Validation failed for locale.', 'locale'],
  ['published_at not a date', { title: 'a', published_at: 'yesterday' }, 'Validation failed for published_at.', 'published_at'],
  ['custom_excerpt over 300', { title: 'a', custom_excerpt: long(301) }, 'Validation failed for custom_excerpt.', 'custom_excerpt'],
  ['custom_template over 100', { title: 'a', custom_template: long(101) }, 'Validation failed for custom_template.', 'custom_template'],
  ['meta_title over 300', { title: 'a', meta_title: long(301) }, 'Validation failed for meta_title.', 'meta_title'],
  ['meta_description over 500', { title: 'a', meta_description: long(501) }, 'Validation failed for meta_description.', 'meta_description'],
  ['og_title over 300', { title: 'a', og_title: long(301) }, 'Validation failed for og_title.', 'og_title'],
  ['twitter_description over 500', { title: 'a', twitter_description: long(501) }, 'Validation failed for twitter_description.', 'twitter_description'],
  [
    'feature_image_alt over 191',
    { title: 'a', feature_image_alt: long(192) },
    'Value in [post_revisions.feature_image_alt] exceeds maximum length of 191 characters. post_revisions.feature_image_alt',
    null,
  ],
  ['a tag that is a number', { title: 'a', tags: [5] }, 'Validation failed for tags[0].', 'tags[0]'],
  ['a tag object without id, name or slug', { title: 'a', tags: [{ description: 'x' }] }, 'Validation failed for tags[0].', 'tags[0]'],
  ['an author that is a number', { title: 'a', authors: [5] }, 'Validation failed for authors[0].', 'authors[0]'],
  ['no authors', { title: 'a', authors: [] }, 'At least one author is required.', null],
  ['a new tag given only an unknown id', { title: 'a', tags: [{ id: UNKNOWN }] }, 'Value in [tags.name] cannot be blank. tags.name', null],
  [
    'both mobiledoc and lexical',
    { title: 'a', lexical: '{"root":{}}', mobiledoc: '{"version":"0.3.1"}' },
    'Posts can have either a mobiledoc or a lexical property, never both. Both the mobiledoc and lexical properties are set, one must be null',
    'lexical',
  ],
  [
    'lexical Lexical cannot read',
    {
      title: 'a',
      lexical: '{"root":{"children":[{"type":"nonexistent-node","version":1}],"direction":null,"format":"","indent":0,"type":"root","version":1}}',
    },
    'Invalid lexical structure.',
    'lexical',
  ],
  ['scheduled without published_at', { title: 'a', status: 'scheduled' }, 'Value in published_at cannot be blank.', null],
  ['scheduled in the past', { title: 'a', status: 'scheduled', published_at: STALE }, 'Date must be at least -2 minutes in the future.', null],
  [
    'a member filter visibility with a broken filter',
    { title: 'a', visibility: 'status:-free', visibility_filter: 'status:(' },
    'Invalid filter in visibility_filter property',
    'visibility_filter',
  ],
];

describe('Admin posts: add validation', () => {
  it.each(FIELD_CASES)('%s → 422, nothing written', async (_label, fields, context, property) => {
    const before = await tableCounts(t);
    const res = await t.admin.post('/posts/', { posts: [fields] });
    expect(res.statusCode).toBe(422);
    const error = ghostError(res);
    expect(error).toMatchObject({ type: 'ValidationError', message: 'Validation error, cannot save post.', property });
    expect(String(error.context).startsWith(context)).toBe(true);
    expect(await tableCounts(t)).toEqual(before);
  });

  it.each([
    ['no body', {}, 'Validation failed for posts.', 'posts'],
    ['an empty list', { posts: [] }, 'Validation failed for posts.', 'posts'],
    ['two posts', { posts: [{ title: 'a' }, { title: 'b' }] }, 'Validation failed for posts.', 'posts'],
    ['no title', { posts: [{}] }, 'Validation failed for posts[0].', 'posts[0]'],
  ])('%s → 422 from the schema', async (_label, body, context, property) => {
    const res = await t.admin.post('/posts/', body);
    expectGhostError(res, { status: 422, message: 'Validation error, cannot save post.', context, property });
  });

  it('reports ajv 6 details', async () => {
    const error = ghostError(await t.admin.post('/posts/', { posts: [{ title: 'a', status: 5 }] }));
    expect(error.details).toEqual([
      { keyword: 'type', dataPath: '.posts[0].status', schemaPath: '#/properties/status/type', params: { type: 'string' }, message: 'should be string' },
      {
        keyword: 'enum',
        dataPath: '.posts[0].status',
        schemaPath: '#/properties/status/enum',
        params: { allowedValues: ['published', 'draft', 'scheduled', 'sent'] },
        message: 'should be equal to one of the allowed values',
      },
    ]);
  });

  it('?source must be html; ?formats on reads must be known', async () => {
    expect(ghostError(await t.admin.post('/posts/?source=markdown', { posts: [{ title: 'a' }] }))).toMatchObject({
      message: 'Validation error, cannot save post.',
      context: 'Validation (AllowedValues) failed for source',
    });
    expect(ghostError(await t.admin.get('/posts/?formats=foo'))).toMatchObject({
      message: 'Validation error, cannot list posts.',
      context: 'Validation (AllowedValues) failed for formats',
    });
  });

  it('query options are checked before the body, as in Ghost', async () => {
    expect(ghostError(await t.admin.post('/posts/?source=markdown', { posts: [{}] }))).toMatchObject({
      context: 'Validation (AllowedValues) failed for source',
    });
  });

  it('unknown and read-only fields are dropped silently', async () => {
    const res = await t.admin.post('/posts/', { posts: [{ title: 'Quiet', id: 'x', uuid: 'y', url: 'z', frontmatter: 'f', foo: 1, type: 'page' }] });
    expect(res.statusCode).toBe(201);
    const post = first(res, 'posts');
    expect(post).toMatchObject({ frontmatter: null, url: expect.stringContaining('/p/') });
    expect(post.id).toMatch(/^[0-9a-f]{24}$/);
    expect(post).not.toHaveProperty('foo');
  });
});

describe('Admin posts: edit validation and collisions', () => {
  it('updated_at is required, a stale one is a 409, and neither writes anything', async () => {
    const post = first(await t.admin.post('/posts/', { posts: [{ title: 'Guarded', tags: ['G'] }] }), 'posts');
    const before = await tableCounts(t);
    const missing = await t.admin.put(`/posts/${post.id}/`, { posts: [{ title: 'x' }] });
    expectGhostError(missing, {
      status: 422,
      message: 'Validation error, cannot edit post.',
      context: 'Validation failed for posts[0].',
      property: 'posts[0]',
    });
    const stale = await t.admin.put(`/posts/${post.id}/`, { posts: [{ title: 'x', tags: ['New tag'], updated_at: STALE }] });
    expect(stale.statusCode).toBe(409);
    expect(ghostError(stale).details).toMatchObject({ changedFields: ['title', 'tags'] });
    expect(await tableCounts(t)).toEqual(before);
    expect(first(await t.admin.get(`/posts/${post.id}/`), 'posts').title).toBe('Guarded');
  });
});

describe('Admin posts: concurrent edits', () => {
  it('two edits made from the same updated_at: one wins, the other gets the 409', async () => {
    const post = first(await t.admin.post('/posts/', { posts: [{ title: 'Raced' }] }), 'posts');
    // Timestamps have whole seconds: start from an older one so the winning edit visibly moves it.
    const seen = new Date(Date.now() - 60_000);
    seen.setMilliseconds(0);
    await t.connection.db.updateTable('posts').set({ updated_at: seen }).where('id', '=', post.id).execute();
    const edit = (title: string) => t.admin.put(`/posts/${post.id}/`, { posts: [{ title, updated_at: seen.toISOString() }] });
    const results = await Promise.all([edit('First'), edit('Second')]);
    expect(results.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    const winner = first(
      results.find((res) => res.statusCode === 200)!,
      'posts',
    );
    expect(first(await t.admin.get(`/posts/${post.id}/`), 'posts').title).toBe(winner.title);
  });
});

describe('Admin posts and pages: not found and malformed ids', () => {
  itAnswersNotFound(
    t,
    [
      ['GET', `/posts/${UNKNOWN}/`, 'Resource not found error, cannot read post.', 'Post not found.'],
      ['GET', '/posts/slug/nope/', 'Resource not found error, cannot read post.', 'Post not found.'],
      ['PUT', `/posts/${UNKNOWN}/`, 'Resource not found error, cannot edit post.', 'Post not found.'],
      ['DELETE', `/posts/${UNKNOWN}/`, 'Resource not found error, cannot delete post.', 'Post not found.'],
      ['GET', `/pages/${UNKNOWN}/`, 'Resource not found error, cannot read page.', 'Page not found.'],
      ['PUT', `/pages/${UNKNOWN}/`, 'Resource not found error, cannot edit page.', 'Post not found.'],
      ['DELETE', `/pages/${UNKNOWN}/`, 'Resource not found error, cannot delete page.', 'Post not found.'],
    ],
    (path) => ({ [path.split('/')[1]!]: [{ title: 'x', updated_at: STALE }] }),
  );

  it('copying an unknown post keeps the plain message (copy is not a controller verb)', async () => {
    const res = await t.admin.post(`/posts/${UNKNOWN}/copy/`);
    expectGhostError(res, { status: 404, message: 'Post not found.', context: null });
  });

  it('a page is not a post', async () => {
    const page = first(await t.admin.post('/pages/', { pages: [{ title: 'A page' }] }), 'pages');
    expect((await t.admin.get(`/posts/${page.id}/`)).statusCode).toBe(404);
  });

  it.each([
    ['/posts/abc/', 'Validation (matches) failed for id undefined.id'],
    ['/posts/slug/Upper-Case/', 'Validation (isSlug) failed for slug undefined.slug'],
    ['/posts/?limit=abc', 'Validation (matches) failed for limit undefined.limit'],
    ['/posts/?page=x', 'Validation (matches) failed for page undefined.page'],
  ])('GET %s → 422', async (path, context) => {
    const res = await t.admin.get(path);
    expect(res.statusCode).toBe(422);
    expect(ghostError(res).context).toBe(context);
  });

  it('a filter Ghost cannot parse is a 400', async () => {
    const res = await t.admin.get('/posts/?filter=title:(');
    expectRefused(res, 400, 'list posts', { context: 'Error parsing filter' });
  });
});

describe('Admin pages: validation', () => {
  it.each([
    ['no body', {}, 400, "No root key ('pages') provided."],
    ['an empty page', { pages: [{}] }, 400, "No root key ('pages') provided."],
    ['status sent', { pages: [{ title: 'a', status: 'sent' }] }, 422, 'Validation failed for status.'],
    [
      'both sources',
      { pages: [{ title: 'a', lexical: '{"root":{}}', mobiledoc: '{"version":"0.3.1"}' }] },
      422,
      'Pages can have either a mobiledoc or a lexical property, never both.',
    ],
    ['title over 255', { pages: [{ title: long(256) }] }, 422, 'Value in [posts.title] exceeds maximum length of 255 characters.'],
  ])('add with %s', async (_label, body, status, context) => {
    const before = await tableCounts(t);
    const res = await t.admin.post('/pages/', body);
    expect(res.statusCode).toBe(status);
    expect(ghostError(res).message).toBe(status === 400 ? 'Request not understood error, cannot save page.' : 'Validation error, cannot save page.');
    expect(String(ghostError(res).context).startsWith(context)).toBe(true);
    expect(await tableCounts(t)).toEqual(before);
  });

  it('edit with a different id in the body → 400', async () => {
    const page = first(await t.admin.post('/pages/', { pages: [{ title: 'Mine' }] }), 'pages');
    const res = await t.admin.put(`/pages/${page.id}/`, { pages: [{ id: UNKNOWN, title: 'x', updated_at: page.updated_at }] });
    expectGhostError(res, { status: 400, message: 'Request not understood error, cannot edit page.', context: 'Invalid id provided.' });
  });
});
