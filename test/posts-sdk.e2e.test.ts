import { describe, expect, it } from 'vitest';
import { ADMIN } from './support.js';
import { useSdks } from './sdk-support.js';
import { useTestSite } from './test-site.js';

// The official SDKs against a listening server: what a Ghost client sees.
const t = useTestSite();
const sdk = useSdks(t);

/** The SDK has no copy method; clients call the endpoint with the same token. */
async function copy(resource: 'posts' | 'pages', id: string) {
  const res = await fetch(`${sdk.base}${ADMIN}/${resource}/${id}/copy/`, { method: 'POST', headers: { ...t.integration(), 'accept-version': 'v5.0' } });
  expect(res.status).toBe(201);
  expect(res.headers.get('location')).toMatch(new RegExp(`/ghost/api/admin/${resource}/[0-9a-f]{24}/$`));
  return (await res.json())[resource][0];
}

describe('Admin API SDK ↔ Content API SDK', () => {
  it('posts: add (html source), read, edit with updated_at, copy, delete; the Content SDK reads them back', async () => {
    const post = await sdk.admin.posts.add(
      { title: 'SDK post', html: '<p>Written with <strong>the SDK</strong>.</p>', tags: ['SDK'], status: 'published' },
      { source: 'html' },
    );
    expect(post).toMatchObject({ title: 'SDK post', slug: 'sdk-post', status: 'published' });

    const read = await sdk.admin.posts.read({ id: post.id }, { formats: 'html' });
    expect(read.html).toBe('<p>Written with <strong>the SDK</strong>.</p>');
    expect((await sdk.admin.posts.read({ slug: 'sdk-post' })).id).toBe(post.id);

    const edited = await sdk.admin.posts.edit({ id: post.id, updated_at: read.updated_at, title: 'SDK post, edited', custom_excerpt: 'Edited' });
    expect(edited).toMatchObject({ title: 'SDK post, edited', excerpt: 'Edited' });
    await expect(sdk.admin.posts.edit({ id: post.id, updated_at: '2020-01-01T00:00:00.000Z', title: 'Stale' })).rejects.toMatchObject({
      name: 'UpdateCollisionError',
      message: 'Saving failed! Someone else is editing this post.',
    });

    const copied = await copy('posts', post.id);
    expect(copied).toMatchObject({ title: 'SDK post, edited (Copy)', status: 'draft' });

    const served = await sdk.content.posts.read({ id: post.id }, { include: 'tags,authors' });
    expect(served).toMatchObject({ title: 'SDK post, edited', html: '<p>Written with <strong>the SDK</strong>.</p>', primary_tag: { name: 'SDK' } });
    expect(served.published_at).toMatch(/\+00:00$/);
    const list = await sdk.content.posts.browse({ limit: 5, include: 'tags' });
    expect(list.map((p: { id: string }) => p.id)).toEqual([post.id]);
    expect(list.meta.pagination).toMatchObject({ page: 1, limit: 5, total: 1 });
    await expect(sdk.content.posts.read({ id: copied.id })).rejects.toMatchObject({ name: 'NotFoundError' });

    await sdk.admin.posts.delete({ id: copied.id });
    await sdk.admin.posts.delete({ id: post.id });
    await expect(sdk.admin.posts.read({ id: post.id })).rejects.toMatchObject({
      name: 'NotFoundError',
      message: 'Resource not found error, cannot read post.',
    });
    expect(await sdk.content.posts.browse()).toHaveLength(0);
  });

  it('pages: add, read, edit, copy, delete; the Content SDK reads them by slug', async () => {
    const page = await sdk.admin.pages.add({ title: 'About', status: 'published', show_title_and_feature_image: false });
    const edited = await sdk.admin.pages.edit({ id: page.id, updated_at: page.updated_at, title: 'About us' });
    expect(edited).toMatchObject({ title: 'About us', slug: 'about', show_title_and_feature_image: false });
    expect((await sdk.admin.pages.read({ id: page.id })).title).toBe('About us');
    const copied = await copy('pages', page.id);
    expect(copied.title).toBe('About us (Copy)');
    expect(await sdk.content.pages.read({ slug: 'about' })).toMatchObject({ id: page.id, title: 'About us', show_title_and_feature_image: false });
    await sdk.admin.pages.delete({ id: copied.id });
    await sdk.admin.pages.delete({ id: page.id });
    await expect(sdk.content.pages.read({ slug: 'about' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('tags: add, read, edit, browse, delete; the Content SDK lists tags of published posts and their authors', async () => {
    const tag = await sdk.admin.tags.add({ name: 'Tutorials', description: 'How-tos' });
    expect(await sdk.admin.tags.read({ id: tag.id })).toMatchObject({ slug: 'tutorials', description: 'How-tos' });
    const edited = await sdk.admin.tags.edit({ id: tag.id, description: 'Step by step' });
    expect(edited.description).toBe('Step by step');
    expect((await sdk.admin.tags.browse({ limit: 'all' })).map((t: { id: string }) => t.id)).toContain(tag.id);

    const post = await sdk.admin.posts.add({ title: 'Tutorial one', tags: [{ id: tag.id }], status: 'published' });
    expect(await sdk.content.tags.read({ slug: 'tutorials' }, { include: 'count.posts' })).toMatchObject({ name: 'Tutorials', count: { posts: 1 } });
    const authors = await sdk.content.authors.browse({ include: 'count.posts' });
    expect(authors.map((a: { slug: string; count: { posts: number } }) => [a.slug, a.count.posts])).toEqual([['owner', 1]]);

    await sdk.admin.tags.delete({ id: tag.id });
    await expect(sdk.admin.tags.read({ id: tag.id })).rejects.toMatchObject({ name: 'NotFoundError' });
    expect((await sdk.admin.posts.read({ id: post.id })).tags).toEqual([]);
  });
});
