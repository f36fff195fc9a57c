import { describe, expect, it } from 'vitest';
import { ghostError, SITE_URL, expectGhostError, expectRefused } from '../../../test/support.js';
import { SEO_KEYS } from '../../../test/shapes.js';
import { first, tableCounts } from '../../../test/posts-support.js';
import { makeStaff } from '../../../test/factories.js';
import { useTestSite, itAnswersNotFound } from '../../../test/test-site.js';

const t = useTestSite({ caller: 'integration' });
const UNKNOWN = '6b01a0b05973b53791bbe3ff';

const addTag = (tag: Record<string, unknown>) => t.admin.post('/tags/', { tags: [tag] });

describe('Admin tags', () => {
  it('adds a tag with Location and a cache purge, dropping unknown fields and storing "" as null', async () => {
    const res = await addTag({ name: 'Getting Started', description: '', feature_image: '/content/images/a.jpg', foo: 'bar', id: 'x' });
    expect(res.statusCode).toBe(201);
    const tag = first(res, 'tags');
    expect(res.headers.location).toBe(`http://localhost:80/ghost/api/admin/tags/${tag.id}/`);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(Object.keys(tag)).toEqual([
      'id',
      'name',
      'slug',
      'description',
      'feature_image',
      'visibility',
      ...SEO_KEYS,
      'codeinjection_head',
      'codeinjection_foot',
      'canonical_url',
      'accent_color',
      'created_at',
      'updated_at',
      'url',
    ]);
    expect(tag).toMatchObject({ name: 'Getting Started', slug: 'getting-started', description: null, visibility: 'public', url: `${SITE_URL}404/` });
    expect(tag.feature_image).toBe(`${SITE_URL.slice(0, -1)}/content/images/a.jpg`);
    expect(tag.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    const stored = await t.connection.db.selectFrom('tags').select('feature_image').where('id', '=', tag.id).executeTakeFirstOrThrow();
    expect(stored.feature_image).toBe('__GHOST_URL__/content/images/a.jpg');
  });

  it('de-duplicates slugs, makes # tags internal and protects reserved slugs', async () => {
    expect(first(await addTag({ name: 'Getting Started' }), 'tags').slug).toBe('getting-started-2');
    expect(first(await addTag({ name: 'Getting Started' }), 'tags').slug).toBe('getting-started-3');
    expect(first(await addTag({ name: '#Hidden Tag' }), 'tags')).toMatchObject({ slug: 'hash-hidden-tag', visibility: 'internal' });
    expect(first(await addTag({ name: 'Feeds', slug: 'rss' }), 'tags').slug).toBe('rss-tag');
    expect(first(await addTag({ name: 'a,b' }), 'tags').name).toBe('a,b');
  });

  it('reads by id and slug, with count.posts', async () => {
    const tag = first(await addTag({ name: 'Readable' }), 'tags');
    const byId = await t.admin.get(`/tags/${tag.id}/?include=count.posts`);
    expect(byId.statusCode).toBe(200);
    expect(first(byId, 'tags').count).toEqual({ posts: 0 });
    const bySlug = await t.admin.get('/tags/slug/readable/');
    expect(first(bySlug, 'tags').id).toBe(tag.id);
    expect(first(bySlug, 'tags')).not.toHaveProperty('count');
  });

  it('browses with pagination', async () => {
    const res = await t.admin.get('/tags/?limit=2&page=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.tags).toHaveLength(2);
    expect(body.meta.pagination).toMatchObject({ page: 2, limit: 2, prev: 1 });
  });

  it('filters tags', async () => {
    const res = await t.admin.get('/tags/?filter=visibility:internal');
    expect(res.json().tags.map((tag: { slug: string }) => tag.slug)).toEqual(['hash-hidden-tag']);
  });

  it('edits a tag; an edit that changes nothing keeps updated_at and purges nothing', async () => {
    const tag = first(await addTag({ name: 'Editable' }), 'tags');
    const same = await t.admin.put(`/tags/${tag.id}/`, { tags: [{ name: 'Editable', description: null }] });
    expect(same.statusCode).toBe(200);
    expect(same.headers['x-cache-invalidate']).toBeUndefined();
    const changed = await t.admin.put(`/tags/${tag.id}/`, { tags: [{ name: '#Edited', slug: 'Readable' }] });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers['x-cache-invalidate']).toBe('/*');
    expect(first(changed, 'tags')).toMatchObject({ name: '#Edited', slug: 'readable-2', visibility: 'internal' });
  });

  it('deletes a tag and detaches it from posts', async () => {
    const tag = first(await addTag({ name: 'Doomed' }), 'tags');
    const post = first(await t.admin.post('/posts/', { posts: [{ title: 'Tagged', tags: [{ id: tag.id }, 'Survivor'] }] }), 'posts');
    const res = await t.admin.del(`/tags/${tag.id}/`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(first(await t.admin.get(`/posts/${post.id}/`), 'posts').tags.map((t: { name: string }) => t.name)).toEqual(['Survivor']);
    expect((await t.admin.get(`/tags/${tag.id}/`)).statusCode).toBe(404);
  });
});

describe('Admin tags: validation', () => {
  const long = (n: number) => 'x'.repeat(n);
  const cases: [string, unknown, string, string][] = [
    ['no body', {}, 'Validation failed for tags.', 'tags'],
    ['empty list', { tags: [] }, 'Validation failed for tags.', 'tags'],
    ['two tags', { tags: [{ name: 'a' }, { name: 'b' }] }, 'Validation failed for tags.', 'tags'],
    ['no name', { tags: [{ slug: 'x' }] }, 'Validation failed for tags[0].', 'tags[0]'],
    ['empty name', { tags: [{ name: '' }] }, 'Validation failed for name.', 'name'],
    ['name starting with a comma', { tags: [{ name: ',a' }] }, 'Validation failed for name.', 'name'],
    ['name of 192', { tags: [{ name: long(192) }] }, 'Validation failed for name.', 'name'],
    ['slug of 192', { tags: [{ name: 'a', slug: long(192) }] }, 'Validation failed for slug.', 'slug'],
    ['description of 501', { tags: [{ name: 'a', description: long(501) }] }, 'Validation failed for description.', 'description'],
    ['unknown visibility', { tags: [{ name: 'a', visibility: 'secret' }] }, 'Validation failed for visibility.', 'visibility'],
    ['meta_title of 301', { tags: [{ name: 'a', meta_title: long(301) }] }, 'Validation failed for meta_title.', 'meta_title'],
    ['meta_description of 501', { tags: [{ name: 'a', meta_description: long(501) }] }, 'Validation failed for meta_description.', 'meta_description'],
    ['og_image not a URL', { tags: [{ name: 'a', og_image: 'a b' }] }, 'Validation failed for og_image.', 'og_image'],
    ['accent_color of 51', { tags: [{ name: 'a', accent_color: long(51) }] }, 'Validation failed for accent_color.', 'accent_color'],
    ['name not a string', { tags: [{ name: 5 }] }, 'Validation failed for name.', 'name'],
  ];
  it.each(cases)('add with %s → 422', async (_label, body, context, property) => {
    const before = await tableCounts(t);
    const res = await t.admin.post('/tags/', body);
    expectGhostError(res, { status: 422, type: 'ValidationError', message: 'Validation error, cannot save tag.', context, property });
    expect(await tableCounts(t)).toEqual(before);
  });

  it('reports ajv details for the first failure', async () => {
    const error = ghostError(await t.admin.post('/tags/', { tags: [{ name: ',a' }] }));
    expect(error.details).toEqual([
      {
        keyword: 'pattern',
        dataPath: '.tags[0].name',
        schemaPath: 'tags#/definitions/tag/properties/name/pattern',
        params: { pattern: '^([^,]|$)' },
        message: 'should match pattern "^([^,]|$)"',
      },
    ]);
  });

  it('edit: name may not be null', async () => {
    const tag = first(await addTag({ name: 'Nullable?' }), 'tags');
    const res = await t.admin.put(`/tags/${tag.id}/`, { tags: [{ name: null }] });
    expectGhostError(res, { status: 422, message: 'Validation error, cannot edit tag.', context: 'Validation failed for name.' });
  });
});

describe('Admin tags: not found and permissions', () => {
  itAnswersNotFound(
    t,
    [
      ['GET', `/tags/${UNKNOWN}/`, 'Resource not found error, cannot read tag.', 'Tag not found.'],
      ['GET', '/tags/slug/nope/', 'Resource not found error, cannot read tag.', 'Tag not found.'],
      ['PUT', `/tags/${UNKNOWN}/`, 'Resource not found error, cannot edit tag.', 'Resource could not be found.'],
      ['DELETE', `/tags/${UNKNOWN}/`, 'Resource not found error, cannot delete tag.', 'Resource could not be found.'],
    ],
    () => ({ tags: [{ name: 'x' }] }),
  );

  it('rejects malformed ids and slugs', async () => {
    expect(ghostError(await t.admin.get('/tags/abc/'))).toMatchObject({
      message: 'Validation error, cannot read tag.',
      context: 'Validation (matches) failed for id undefined.id',
    });
    expect(ghostError(await t.admin.get('/tags/slug/Upper/'))).toMatchObject({
      message: 'Validation error, cannot read tag.',
      context: 'Validation (isSlug) failed for slug undefined.slug',
    });
  });

  it('Contributors may read but not add tags; Authors add but not edit or delete', async () => {
    const contributor = await t.session(await makeStaff(t, 'Contributor'));
    expect((await t.admin.get('/tags/', contributor)).statusCode).toBe(200);
    const denied = await t.admin.post('/tags/', { tags: [{ name: 'Nope' }] }, contributor);
    expectRefused(denied, 403, 'save tag', { context: 'You do not have permission to add tags' });
    const author = await t.session(await makeStaff(t, 'Author'));
    const added = await t.admin.post('/tags/', { tags: [{ name: 'By an author' }] }, author);
    expect(added.statusCode).toBe(201);
    const id = first(added, 'tags').id;
    expect(ghostError(await t.admin.put(`/tags/${id}/`, { tags: [{ name: 'x' }] }, author))).toMatchObject({
      context: 'You do not have permission to edit tags',
    });
    expect(ghostError(await t.admin.del(`/tags/${id}/`, author))).toMatchObject({ context: 'You do not have permission to destroy tags' });
  });
});
