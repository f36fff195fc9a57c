import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ghostError, SITE_URL, expectGhostError, expectRefused } from '../../../test/support.js';
import { PROFILE_KEYS, SEO_KEYS } from '../../../test/shapes.js';
import { first } from '../../../test/posts-support.js';
import { useTestSite } from '../../../test/test-site.js';
import { lexicalOf, makePage, makePost } from '../../../test/factories.js';

const t = useTestSite({ caller: 'integration' });
const UNKNOWN = '6b01a0b05973b53791bbe3ff';
const ids: Record<string, string> = {};

beforeAll(async () => {
  ids.older = await makePost(t, {
    title: 'Older',
    status: 'published',
    published_at: '2024-01-01T10:00:00.000Z',
    tags: ['News', '#internal'],
    lexical: lexicalOf('Older text'),
  });
  ids.newer = await makePost(t, {
    title: 'Newer',
    status: 'published',
    published_at: '2025-01-01T10:00:00.000Z',
    tags: ['Other'],
    lexical: lexicalOf('Newer text'),
    meta_title: '',
  });
  ids.draft = await makePost(t, { title: 'Draft', tags: ['Draft only'] });
  ids.members = await makePost(t, { title: 'Members', status: 'published', visibility: 'members', custom_excerpt: 'Teaser', lexical: lexicalOf('Secret') });
  ids.pageB = await makePage(t, { title: 'B page', status: 'published' });
  ids.pageA = await makePage(t, { title: 'A page', status: 'published' });
  ids.pageDraft = await makePage(t, { title: 'Draft page' });
});

describe('Content API posts', () => {
  it('lists published posts only, newest first, in the content shape', async () => {
    const res = await t.content.get('/posts/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=0');
    const body = res.json();
    expect(body.posts.map((p: { title: string }) => p.title)).toEqual(['Members', 'Newer', 'Older']);
    expect(body.meta.pagination).toEqual({ page: 1, limit: 15, pages: 1, total: 3, next: null, prev: null });
    const post = body.posts.find((p: { id: string }) => p.id === ids.newer);
    expect(Object.keys(post)).toEqual([
      'id',
      'uuid',
      'title',
      'slug',
      'html',
      'comment_id',
      'feature_image',
      'featured',
      'visibility',
      'created_at',
      'updated_at',
      'published_at',
      'custom_excerpt',
      'codeinjection_head',
      'codeinjection_foot',
      'custom_template',
      'canonical_url',
      'url',
      'excerpt',
      'reading_time',
      'access',
      'comments',
      ...SEO_KEYS,
      'email_subject',
      'frontmatter',
      'feature_image_alt',
      'feature_image_caption',
    ]);
    expect(post).toMatchObject({
      html: '<p>Newer text</p>',
      published_at: '2025-01-01T10:00:00.000+00:00',
      url: `${SITE_URL}newer/`,
      excerpt: 'Newer text',
      reading_time: 0,
      access: true,
      comments: false,
      meta_title: null,
    });
    expect(post.created_at).toMatch(/\.000\+00:00$/);
  });

  it('a client filter cannot reach drafts; tag filters work', async () => {
    expect((await t.content.get('/posts/?filter=status:draft')).json().posts).toHaveLength(3);
    expect((await t.content.get('/posts/?filter=tag:news')).json().posts.map((p: { id: string }) => p.id)).toEqual([ids.older]);
  });

  it('embeds tags and authors in their content shapes with include', async () => {
    const post = first(await t.content.get(`/posts/${ids.older}/?include=tags,authors`), 'posts');
    expect(post.tags.map((tag: { slug: string; url: string }) => [tag.slug, tag.url])).toEqual([
      ['news', `${SITE_URL}tag/news/`],
      ['hash-internal', `${SITE_URL}404/`],
    ]);
    expect(post.tags[0]).not.toHaveProperty('created_at');
    expect(post.primary_tag.slug).toBe('news');
    expect(Object.keys(post.authors[0])).toEqual(['id', 'name', 'slug', ...PROFILE_KEYS, 'meta_title', 'meta_description', 'url']);
    expect(post.primary_author.url).toBe(`${SITE_URL}author/owner/`);
  });

  it('reads by id and slug; drafts and unknown ids are not found', async () => {
    expect(first(await t.content.get('/posts/slug/older/'), 'posts').id).toBe(ids.older);
    for (const path of [`/posts/${ids.draft}/`, `/posts/${UNKNOWN}/`, '/posts/slug/draft/']) {
      const res = await t.content.get(path);
      expectRefused(res, 404, 'read post', { context: 'Post not found.' });
    }
  });

  it('formats: plaintext on request; source formats are dropped, unknown ones refused', async () => {
    const post = first(await t.content.get(`/posts/${ids.older}/?formats=plaintext,lexical,mobiledoc`), 'posts');
    expect(post.plaintext).toBe('Older text');
    expect(post).not.toHaveProperty('html');
    expect(post).not.toHaveProperty('lexical');
    const res = await t.content.get('/posts/?formats=markdown');
    expectGhostError(res, { status: 422, message: 'Validation error, cannot list posts.', context: 'Validation (AllowedValues) failed for formats' });
  });

  it('members-only content is gated for anonymous readers', async () => {
    const post = first(await t.content.get(`/posts/${ids.members}/?formats=html,plaintext`), 'posts');
    expect(post).toMatchObject({ access: false, html: '', plaintext: '', excerpt: '', custom_excerpt: 'Teaser', comments: false });
    expect(post.reading_time).toBe(0);
  });

  it('a paywall cuts the html where it stands; Ghost then also shows the recomputed plaintext', async () => {
    const lexical = JSON.stringify({
      root: {
        children: [JSON.parse(lexicalOf('Free part')).root.children[0], { type: 'paywall', version: 1 }, JSON.parse(lexicalOf('Paid part')).root.children[0]],
        direction: 'ltr',
        format: '',
        indent: 0,
        type: 'root',
        version: 1,
      },
    });
    const id = first(await t.admin.post('/posts/', { posts: [{ title: 'Paywalled', status: 'published', visibility: 'paid', lexical }] }), 'posts').id;
    const post = first(await t.content.get(`/posts/${id}/`), 'posts');
    expect(post).toMatchObject({ html: '<p>Free part</p>', excerpt: 'Free part', plaintext: 'Free part', access: false });
    expect(Object.keys(post).slice(Object.keys(post).indexOf('access'), Object.keys(post).indexOf('access') + 3)).toEqual(['access', 'plaintext', 'comments']);
    const textOnly = first(await t.content.get(`/posts/${id}/?formats=plaintext`), 'posts');
    expect(textOnly).toMatchObject({ plaintext: '', excerpt: '' });
    await t.admin.del(`/posts/${id}/`);
  });

  it('paginates', async () => {
    const body = (await t.content.get('/posts/?limit=2&page=2')).json();
    expect(body.posts.map((p: { title: string }) => p.title)).toEqual(['Older']);
    expect(body.meta.pagination).toEqual({ page: 2, limit: 2, pages: 2, total: 3, next: null, prev: 1 });
  });
});

describe('Content API pages, tags and authors', () => {
  it('pages: published only, by title', async () => {
    const body = (await t.content.get('/pages/')).json();
    expect(body.pages.map((p: { title: string }) => p.title)).toEqual(['A page', 'B page']);
    expect(body.pages[0]).toHaveProperty('show_title_and_feature_image', true);
    expect(body.pages[0]).not.toHaveProperty('email_subject');
    const res = await t.content.get(`/pages/${ids.pageDraft}/`);
    expect(ghostError(res)).toMatchObject({ message: 'Resource not found error, cannot read page.', context: 'Page not found.' });
  });

  it('tags: those on published content, by name, with public counts', async () => {
    const body = (await t.content.get('/tags/?include=count.posts')).json();
    expect(body.tags.map((tag: { slug: string; count: { posts: number } }) => [tag.slug, tag.count.posts])).toEqual([
      ['hash-internal', 1],
      ['news', 1],
      ['other', 1],
    ]);
    expect(body.tags[0]).not.toHaveProperty('updated_at');
    expect(first(await t.content.get('/tags/slug/news/'), 'tags').name).toBe('News');
    const res = await t.content.get('/tags/slug/draft-only/');
    expect(ghostError(res)).toMatchObject({ type: 'NotFoundError', message: 'Resource not found error, cannot read tag.', context: 'Tag not found.' });
  });

  it('authors: staff with published content; private fields cannot be filtered on', async () => {
    const body = (await t.content.get('/authors/?include=count.posts&filter=email:nobody@example.com')).json();
    expect(body.authors.map((a: { slug: string; count: { posts: number } }) => [a.slug, a.count.posts])).toEqual([['owner', 3]]);
    expect(body.authors[0]).not.toHaveProperty('email');
    expect(first(await t.content.get('/authors/1/'), 'authors').slug).toBe('owner');
    const res = await t.content.get(`/authors/${UNKNOWN}/`);
    expect(ghostError(res)).toMatchObject({ message: 'Resource not found error, cannot read author.', context: 'Author not found.' });
  });

  it('needs a content key', async () => {
    const res = await t.app.inject({ url: '/ghost/api/content/posts/' });
    expect(res.statusCode).toBe(403);
  });
});

describe('Rendering parity with Ghost 5.130.6', () => {
  it('a lexical post with a heading, list, link, image card and bookmark card renders as Ghost renders it', async () => {
    const lexical = JSON.stringify(JSON.parse(readFileSync('test/fixtures/lexical-rich.json', 'utf8')));
    const ghost = JSON.parse(readFileSync('test/fixtures/lexical-rich.ghost.json', 'utf8'));
    const res = await t.admin.post('/posts/?formats=html,plaintext', {
      posts: [{ title: 'Rich post', lexical, status: 'published', feature_image: 'https://images.example.com/f.jpg' }],
    });
    const post = first(res, 'posts');
    expect(post.html).toBe(ghost.admin.html);
    expect(post.plaintext).toBe(ghost.admin.plaintext);
    expect(post.excerpt).toBe(ghost.admin.excerpt);
    expect(post.reading_time).toBe(ghost.admin.reading_time);
    const served = first(await t.content.get(`/posts/${post.id}/`), 'posts');
    // The Content API tags outbound links with ?ref=<site host>; the fixture's site was 127.0.0.1 too.
    expect(served.html).toBe(ghost.content.html);
    expect(served.reading_time).toBe(ghost.content.reading_time);
  });
});
