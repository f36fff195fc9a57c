import { describe, expect, it } from 'vitest';
import { expectGhostError } from '../../../test/support.js';
import { first } from '../../../test/posts-support.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite({ caller: 'integration' });

const add = async (docName: 'posts' | 'pages', fields: Record<string, unknown>) => first(await t.admin.post(`/${docName}/`, { [docName]: [fields] }), docName);
const bulk = (action: string, filter: string, meta?: unknown) =>
  t.admin.put(`/posts/bulk/?filter=${encodeURIComponent(filter)}`, { bulk: { action, ...(meta ? { meta } : {}) } });

describe('PUT /posts/bulk/', () => {
  it('feature, unfeature, unpublish and access apply to matching posts of the type only', async () => {
    const a = await add('posts', { title: 'Bulk A', status: 'published', tags: ['Batch'] });
    const b = await add('posts', { title: 'Bulk B', tags: ['Batch'] });
    const page = await add('pages', { title: 'Bulk page', tags: ['Batch'] });
    const res = await bulk('feature', 'tag:batch');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(res.json()).toEqual({ bulk: { meta: { stats: { successful: 2, unsuccessful: 0 }, errors: [], unsuccessfulData: [] } } });
    expect(first(await t.admin.get(`/posts/${b.id}/`), 'posts').featured).toBe(true);
    expect(first(await t.admin.get(`/pages/${page.id}/`), 'pages').featured).toBe(false);
    expect((await bulk('unpublish', 'tag:batch')).json().bulk.meta.stats.successful).toBe(1);
    expect(first(await t.admin.get(`/posts/${a.id}/`), 'posts').status).toBe('draft');
    expect((await bulk('access', `id:${a.id}`, { visibility: 'paid' })).statusCode).toBe(200);
    expect(first(await t.admin.get(`/posts/${a.id}/`), 'posts').visibility).toBe('paid');
  });

  it('addTag creates missing tags and attaches them', async () => {
    const post = await add('posts', { title: 'Needs a tag' });
    const res = await bulk('addTag', `id:${post.id}`, { tags: [{ name: 'Bulk added' }] });
    expect(res.json()).toEqual({ bulk: { meta: { stats: { successful: 1, unsuccessful: 0 } } } });
    expect(first(await t.admin.get(`/posts/${post.id}/`), 'posts').tags.map((tag: { name: string }) => tag.name)).toEqual(['Bulk added']);
  });

  it('unschedule moves scheduled posts back to drafts', async () => {
    const future = new Date(Date.now() + 86400_000).toISOString();
    const post = await add('posts', { title: 'Scheduled', status: 'scheduled', published_at: future });
    expect((await bulk('unschedule', `id:${post.id}`)).json().bulk.meta.stats.successful).toBe(1);
    expect(first(await t.admin.get(`/posts/${post.id}/`), 'posts')).toMatchObject({ status: 'draft', published_at: null });
  });

  it('errors: no filter, unknown action, bad meta', async () => {
    const noFilter = await t.admin.put('/posts/bulk/', { bulk: { action: 'feature' } });
    expectGhostError(noFilter, { status: 422, type: 'ValidationError', message: 'Validation (FieldIsRequired) failed for filter', context: null });
    for (const [action, meta, message] of [
      ['explode', undefined, 'Unsupported bulk action'],
      ['access', { visibility: 'x' }, 'Invalid visibility value.'],
      ['addTag', { tags: ['x'] }, 'Invalid tags value.'],
    ] as const) {
      const res = await bulk(action, 'status:draft', meta);
      expectGhostError(res, { status: 400, type: 'IncorrectUsageError', message });
    }
  });
});

describe('DELETE /posts/?filter=', () => {
  it('deletes matching posts with their relations and reports the count', async () => {
    const doomed = await add('posts', { title: 'Doomed one', tags: ['Doomed'] });
    await add('posts', { title: 'Doomed two', tags: ['Doomed'] });
    const kept = await add('pages', { title: 'Kept page', tags: ['Doomed'] });
    const res = await t.admin.del('/posts/?filter=tag:doomed');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(res.json()).toEqual({ bulk: { meta: { stats: { successful: 2, unsuccessful: 0 }, errors: [] } } });
    expect((await t.admin.get(`/posts/${doomed.id}/`)).statusCode).toBe(404);
    expect((await t.admin.get(`/pages/${kept.id}/`)).statusCode).toBe(200);
    expect(await t.connection.db.selectFrom('posts_tags').select('id').where('post_id', '=', doomed.id).execute()).toEqual([]);
  });

  it('pages have the same endpoint', async () => {
    const page = await add('pages', { title: 'Page to go' });
    expect((await t.admin.del(`/pages/?filter=id:${page.id}`)).json().bulk.meta.stats.successful).toBe(1);
  });
});
