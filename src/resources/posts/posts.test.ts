import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ghostError, SITE_URL, expectGhostError, expectRefused } from '../../../test/support.js';
import { SEO_KEYS } from '../../../test/shapes.js';
import { first } from '../../../test/posts-support.js';
import { useTestSite } from '../../../test/test-site.js';
import { BLANK_LEXICAL } from './posts.formats.js';

const t = useTestSite({ caller: 'integration' });

const addPost = (post: Record<string, unknown>, query = '') => t.admin.post(`/posts/${query}`, { posts: [post] });
const editPost = (id: string, post: Record<string, unknown>, query = '') => t.admin.put(`/posts/${id}/${query}`, { posts: [post] });

const ADMIN_POST_KEYS = [
  'id',
  'uuid',
  'title',
  'slug',
  'lexical',
  'comment_id',
  'feature_image',
  'featured',
  'status',
  'visibility',
  'created_at',
  'updated_at',
  'published_at',
  'custom_excerpt',
  'codeinjection_head',
  'codeinjection_foot',
  'custom_template',
  'canonical_url',
  'tags',
  'authors',
  'tiers',
  'count',
  'primary_author',
  'primary_tag',
  'email_segment',
  'url',
  'excerpt',
  ...SEO_KEYS,
  'email_subject',
  'frontmatter',
  'feature_image_alt',
  'feature_image_caption',
  'email_only',
  'email',
  'newsletter',
];

describe('Admin posts: add and read', () => {
  it("a title alone makes a draft with Ghost's defaults", async () => {
    const res = await addPost({ title: 'Hello world' });
    expect(res.statusCode).toBe(201);
    const post = first(res, 'posts');
    expect(res.headers.location).toBe(`http://localhost:80/ghost/api/admin/posts/${post.id}/`);
    expect(res.headers['x-cache-invalidate']).toBeUndefined();
    expect(Object.keys(post)).toEqual(ADMIN_POST_KEYS);
    expect(post).toMatchObject({
      title: 'Hello world',
      slug: 'hello-world',
      lexical: BLANK_LEXICAL,
      comment_id: post.id,
      featured: false,
      status: 'draft',
      visibility: 'public',
      published_at: null,
      tags: [],
      email_segment: 'all',
      excerpt: null,
      email_only: false,
      email: null,
      newsletter: null,
      primary_tag: null,
      url: `${SITE_URL}p/${post.uuid}/`,
      count: { clicks: 0, positive_feedback: 0, negative_feedback: 0 },
    });
    // A public post lists every tier, the free one first (Ghost's posts mapper).
    expect(post.tiers.map((tier: { slug: string }) => tier.slug)).toEqual(['free', 'default-product']);
    expect(post.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(post.authors.map((a: { id: string }) => a.id)).toEqual(['1']);
    expect(post.primary_author).toEqual(post.authors[0]);
    expect(post.authors[0].roles.map((r: { name: string }) => r.name)).toEqual(['Owner']);
    expect(post).not.toHaveProperty('html');
    expect(post).not.toHaveProperty('reading_time');
  });

  it('publishing sets published_at, a permalink and purges the site cache', async () => {
    const res = await addPost({ title: 'Live now', status: 'published', custom_excerpt: 'Short', feature_image: `${SITE_URL}content/images/x.jpg` });
    const post = first(res, 'posts');
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(post.published_at).toBe(post.created_at);
    expect(post).toMatchObject({ url: `${SITE_URL}live-now/`, excerpt: 'Short', feature_image: `${SITE_URL}content/images/x.jpg` });
    const stored = await t.connection.db.selectFrom('posts').select('feature_image').where('id', '=', post.id).executeTakeFirstOrThrow();
    expect(stored.feature_image).toBe('__GHOST_URL__/content/images/x.jpg');
  });

  it('renders html at write time; formats add html, plaintext and mobiledoc', async () => {
    const lexical = readFileSync('test/fixtures/lexical-rich.json', 'utf8');
    const res = await addPost({ title: 'Formats', lexical: JSON.stringify(JSON.parse(lexical)) }, '?formats=html,plaintext,mobiledoc');
    const post = first(res, 'posts');
    expect(Object.keys(post).slice(0, 9)).toEqual(['id', 'uuid', 'title', 'slug', 'mobiledoc', 'lexical', 'html', 'comment_id', 'plaintext']);
    expect(post.mobiledoc).toBeNull();
    expect(post.html).toContain('<h2 id="a-heading">A heading</h2>');
    expect(post.plaintext.startsWith('A heading\n\nSome bold text')).toBe(true);
    expect(post.reading_time).toBe(1);
    const stored = await t.connection.db.selectFrom('posts').select(['html', 'plaintext']).where('id', '=', post.id).executeTakeFirstOrThrow();
    expect(stored.html).toBe(post.html);
    const read = first(await t.admin.get(`/posts/${post.id}/?formats=html`), 'posts');
    expect(read.html).toBe(post.html);
    expect(read).not.toHaveProperty('plaintext');
  });

  it('?source=html converts html to lexical and stores the normalised rendering', async () => {
    const res = await addPost({ title: 'From html', html: '<p>Hi <b>there</b></p><img src="https://x.example/a.jpg">' }, '?source=html&formats=html');
    const post = first(res, 'posts');
    expect(JSON.parse(post.lexical).root.children.map((node: { type: string }) => node.type)).toEqual(['paragraph', 'image']);
    expect(post.html).toBe(
      '<p>Hi <strong>there</strong></p><figure class="kg-card kg-image-card"><img src="https://x.example/a.jpg" class="kg-image" alt="" loading="lazy"></figure>',
    );
  });

  it('html without ?source=html is ignored', async () => {
    const post = first(await addPost({ title: 'Html ignored', html: '<p>Nope</p>' }, '?formats=html'), 'posts');
    expect(post.html).toBeNull();
    expect(post.lexical).toBe(BLANK_LEXICAL);
  });

  it('accepts legacy mobiledoc and keeps it', async () => {
    const mobiledoc = JSON.stringify({ version: '0.3.1', atoms: [], cards: [], markups: [], sections: [[1, 'p', [[0, [], 0, 'Old school']]]] });
    const post = first(await addPost({ title: 'Mobiledoc', mobiledoc }, '?formats=mobiledoc,html'), 'posts');
    expect(post).toMatchObject({ mobiledoc, lexical: null, html: '<p>Old school</p>' });
  });

  it('?source=html on a mobiledoc post keeps it mobiledoc, as Ghost does', async () => {
    const mobiledoc = JSON.stringify({ version: '0.3.1', atoms: [], cards: [], markups: [], sections: [[1, 'p', [[0, [], 0, 'Before']]]] });
    const post = first(await addPost({ title: 'Legacy html edit', mobiledoc }), 'posts');
    const res = await editPost(post.id, { html: '<p>After <em>edit</em></p>', updated_at: post.updated_at }, '?source=html&formats=mobiledoc,html');
    expect(first(res, 'posts')).toMatchObject({ lexical: null, html: '<p>After <em>edit</em></p>' });
    expect(JSON.parse(first(res, 'posts').mobiledoc).version).toBe('0.3.1');
  });

  it('fields on a read keep the lookup key first', async () => {
    const post = first(await addPost({ title: 'Fielded' }), 'posts');
    expect(first(await t.admin.get(`/posts/${post.id}/?fields=title,url`), 'posts')).toEqual({ id: post.id, title: 'Fielded', url: post.url });
    expect(Object.keys(first(await t.admin.get('/posts/slug/fielded/?fields=title'), 'posts'))).toEqual(['slug', 'title']);
  });

  it('slugs are generated from the title and de-duplicated across posts and pages', async () => {
    expect(first(await addPost({ title: 'Same Title' }), 'posts').slug).toBe('same-title');
    expect(first(await t.admin.post('/pages/', { pages: [{ title: 'Same Title' }] }), 'pages').slug).toBe('same-title-2');
    expect(first(await addPost({ title: 'Other', slug: 'Same Title' }), 'posts').slug).toBe('same-title-3');
    expect(first(await addPost({ title: '' }), 'posts')).toMatchObject({ title: '(Untitled)', slug: 'untitled' });
  });

  it('resolves tags by id, name or slug, creates new ones and keeps their order', async () => {
    const news = first(await t.admin.post('/tags/', { tags: [{ name: 'News' }] }), 'tags');
    const post = first(await addPost({ title: 'Tagged', tags: ['Fresh', { slug: 'News' }, 'fresh', { name: '#internal' }, { id: news.id }] }), 'posts');
    expect(post.tags.map((tag: { name: string; slug: string }) => `${tag.name}/${tag.slug}`)).toEqual(['Fresh/fresh', 'News/news', '#internal/hash-internal']);
    expect(post.primary_tag.name).toBe('Fresh');
    const internalFirst = first(await addPost({ title: 'Internal first', tags: ['#internal', 'News'] }), 'posts');
    expect(internalFirst.primary_tag).toBeNull();
  });

  it('resolves authors by id, slug or e-mail; unknown authors become the Owner; repeats are dropped', async () => {
    const post = first(await addPost({ title: 'Authored', authors: ['owner@example.com', { slug: 'nobody' }, { id: '1' }] }), 'posts');
    expect(post.authors.map((a: { id: string }) => a.id)).toEqual(['1']);
  });

  it('reads by id and by slug, and browses drafts before published posts', async () => {
    const post = first(await addPost({ title: 'Find me' }), 'posts');
    expect(first(await t.admin.get(`/posts/${post.id}/`), 'posts').id).toBe(post.id);
    expect(first(await t.admin.get('/posts/slug/find-me/'), 'posts').id).toBe(post.id);
    const browse = (await t.admin.get('/posts/?limit=all')).json();
    const statuses = browse.posts.map((p: { status: string }) => p.status);
    expect(statuses.indexOf('published')).toBeGreaterThan(statuses.lastIndexOf('draft'));
    expect(browse.meta.pagination).toMatchObject({ page: 1, limit: 'all', pages: 1, next: null, prev: null });
    expect(browse.posts.every((p: { slug: string }) => p.slug !== 'same-title-2')).toBe(true);
  });

  it('include names exactly what is embedded', async () => {
    const post = first(await addPost({ title: 'Includes', tags: ['X'] }), 'posts');
    const read = first(await t.admin.get(`/posts/${post.id}/?include=tags,unknown`), 'posts');
    expect(read.tags.map((tag: { name: string }) => tag.name)).toEqual(['X']);
    expect(read).not.toHaveProperty('authors');
    expect(read).not.toHaveProperty('count');
    expect(read).not.toHaveProperty('email');
  });
});

describe('Admin posts: edit', () => {
  it('edits with the updated_at the client saw; a stale one is a 409 only if something changed', async () => {
    const post = first(await addPost({ title: 'Editable' }), 'posts');
    const stale = '2020-01-01T00:00:00.000Z';
    const noChange = await editPost(post.id, { title: 'Editable', updated_at: stale });
    expect(noChange.statusCode).toBe(200);
    expect(first(noChange, 'posts').updated_at).toBe(post.updated_at);
    const collision = await editPost(post.id, { title: 'Changed', updated_at: stale });
    expect(collision.statusCode).toBe(409);
    expect(ghostError(collision)).toEqual({
      message: 'Saving failed! Someone else is editing this post.',
      context: 'Saving failed! Someone else is editing this post.',
      type: 'UpdateCollisionError',
      details: { changedFields: ['title'], clientUpdatedAt: stale, serverUpdatedAt: post.updated_at },
      property: null,
      help: null,
      code: 'UPDATE_COLLISION',
      id: expect.any(String),
      ghostErrorCode: null,
    });
    const ok = await editPost(post.id, { title: 'Changed', updated_at: post.updated_at, custom_excerpt: 'Now with excerpt' });
    expect(ok.statusCode).toBe(200);
    expect(first(ok, 'posts')).toMatchObject({ title: 'Changed', slug: 'editable', excerpt: 'Now with excerpt' });
  });

  it('a changed tag list collides too', async () => {
    const post = first(await addPost({ title: 'Tag collision', tags: ['A'] }), 'posts');
    const res = await editPost(post.id, { tags: [], updated_at: '2020-01-01T00:00:00.000Z' });
    expect(res.statusCode).toBe(409);
    expect(ghostError(res).details).toMatchObject({ changedFields: ['tags'] });
  });

  it('sends X-Cache-Invalidate as Ghost does for drafts, publishing and unpublishing', async () => {
    const post = first(await addPost({ title: 'Cache' }), 'posts');
    const draft = await editPost(post.id, { updated_at: post.updated_at });
    const preview = `/p/${post.uuid}/`;
    expect(draft.headers['x-cache-invalidate']).toBe(
      `${preview}, ${preview}?member_status=anonymous, ${preview}?member_status=free, ${preview}?member_status=paid`,
    );
    const published = await editPost(post.id, { status: 'published', updated_at: post.updated_at });
    expect(published.headers['x-cache-invalidate']).toBe('/*');
    const live = first(published, 'posts');
    expect(live.url).toBe(`${SITE_URL}cache/`);
    const untouched = await editPost(post.id, { updated_at: live.updated_at });
    expect(untouched.headers['x-cache-invalidate']).toBeUndefined();
    const unpublished = await editPost(post.id, { status: 'draft', updated_at: live.updated_at });
    expect(unpublished.headers['x-cache-invalidate']).toBe('/*');
    expect(first(unpublished, 'posts').published_at).toBe(live.published_at);
  });

  it('scheduling needs a future published_at; a published post cannot be scheduled', async () => {
    const post = first(await addPost({ title: 'Later' }), 'posts');
    const future = new Date(Date.now() + 86400_000).toISOString();
    const scheduled = await editPost(post.id, { status: 'scheduled', published_at: future, updated_at: post.updated_at });
    expect(scheduled.statusCode).toBe(200);
    expect(first(scheduled, 'posts')).toMatchObject({ status: 'scheduled', url: `${SITE_URL}p/${post.uuid}/` });
    const live = first(await addPost({ title: 'Already live', status: 'published' }), 'posts');
    const res = await editPost(live.id, { status: 'scheduled', published_at: future, updated_at: live.updated_at });
    expectGhostError(res, { status: 422, message: 'Validation error, cannot edit post.', context: 'Your post is already published, please reload your page.' });
  });

  it('sent is only for e-mail-only posts; publishing an e-mail-only post sends it', async () => {
    const post = first(await addPost({ title: 'Not email', status: 'sent' }), 'posts');
    expect(post.status).toBe('published');
    const email = first(await addPost({ title: 'Email only', email_only: true }), 'posts');
    expect(email.url).toBe(`${SITE_URL}email/${email.uuid}/`);
    const sent = first(await editPost(email.id, { status: 'published', updated_at: email.updated_at }), 'posts');
    expect(sent).toMatchObject({ status: 'sent', email_only: true });
  });

  it('relations: tags [] removes all, authors [] is refused, meta fields round-trip', async () => {
    const post = first(await addPost({ title: 'Relations', tags: ['One', 'Two'], meta_title: 'Meta', og_image: `${SITE_URL}content/images/og.png` }), 'posts');
    expect(post).toMatchObject({ meta_title: 'Meta', og_image: `${SITE_URL}content/images/og.png` });
    const cleared = first(await editPost(post.id, { tags: [], meta_title: '', updated_at: post.updated_at }), 'posts');
    expect(cleared).toMatchObject({ tags: [], primary_tag: null, meta_title: null });
    const res = await editPost(post.id, { authors: [], updated_at: post.updated_at });
    expectGhostError(res, { status: 422, message: 'Validation error, cannot edit post.', context: 'At least one author is required.' });
  });

  it('the newsletter option needs an active newsletter when publishing', async () => {
    const post = first(await addPost({ title: 'Newsletter' }), 'posts');
    const res = await editPost(post.id, { status: 'published', updated_at: post.updated_at }, '?newsletter=weekly');
    expectRefused(res, 400, 'edit post', { context: "The newsletter parameter doesn't match any active newsletter." });
    expect(first(await t.admin.get(`/posts/${post.id}/`), 'posts').status).toBe('draft');
  });
});

describe('Admin posts: copy and delete', () => {
  it('copies a post as a draft titled "(Copy)" with its tags, authors and meta', async () => {
    const post = first(
      await addPost({ title: 'Original', status: 'published', tags: ['Copied'], meta_description: 'Desc', canonical_url: 'https://example.com/x' }),
      'posts',
    );
    const res = await t.admin.post(`/posts/${post.id}/copy/`);
    expect(res.statusCode).toBe(201);
    const copy = first(res, 'posts');
    expect(res.headers.location).toBe(`http://localhost:80/ghost/api/admin/posts/${copy.id}/`);
    expect(copy).toMatchObject({
      title: 'Original (Copy)',
      slug: 'original-copy',
      status: 'draft',
      published_at: null,
      meta_description: 'Desc',
      canonical_url: null,
    });
    expect(copy.tags.map((tag: { name: string }) => tag.name)).toEqual(['Copied']);
    expect(copy.lexical).toBe(post.lexical);
  });

  it('deletes with 204 and a cache purge', async () => {
    const post = first(await addPost({ title: 'Doomed', tags: ['Kept'] }), 'posts');
    const res = await t.admin.del(`/posts/${post.id}/`);
    expect(res.statusCode).toBe(204);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect((await t.admin.get(`/posts/${post.id}/`)).statusCode).toBe(404);
    expect(await t.connection.db.selectFrom('posts_tags').select('id').where('post_id', '=', post.id).execute()).toEqual([]);
  });
});
