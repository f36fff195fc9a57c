import { describe, expect, it } from 'vitest';
import { ghostError, expectGhostError, countRows, expectRefused } from '../../../test/support.js';
import { first } from '../../../test/posts-support.js';
import { makeStaff } from '../../../test/factories.js';
import { useTestSite, itAnswersNotFound } from '../../../test/test-site.js';

const t = useTestSite({ caller: 'integration' });
const UNKNOWN = '6b01a0b05973b53791bbe3ff';

const addLabel = (label: Record<string, unknown>) => t.admin.post('/labels/', { labels: [label] });
const labelCount = () => countRows(t, 'labels');

describe('Admin labels', () => {
  it('adds a label with Location and no cache purge, trimming the name and dropping unknown fields', async () => {
    const res = await addLabel({ name: '  VIP Customers ', foo: 'bar' });
    expect(res.statusCode).toBe(201);
    const label = first(res, 'labels');
    expect(res.headers.location).toBe(`http://localhost:80/ghost/api/admin/labels/${label.id}/`);
    expect(res.headers['x-cache-invalidate']).toBeUndefined();
    expect(Object.keys(label)).toEqual(['id', 'name', 'slug', 'created_at', 'updated_at']);
    expect(label).toMatchObject({ name: 'VIP Customers', slug: 'vip-customers' });
    expect(label.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
  });

  it('slugifies a given slug and de-duplicates slugs', async () => {
    expect(first(await addLabel({ name: 'Other', slug: 'VIP Customers' }), 'labels').slug).toBe('vip-customers-2');
    expect(first(await addLabel({ name: 'Spaced', slug: 'Hello World' }), 'labels').slug).toBe('hello-world');
  });

  it('refuses a second label of the same name, in any case, and writes nothing', async () => {
    const before = await labelCount();
    for (const name of ['VIP Customers', 'vip customers']) {
      const res = await addLabel({ name });
      expectRefused(res, 422, 'save label', { context: 'Label already exists' });
    }
    expect(await labelCount()).toBe(before);
  });

  it('reads by id and slug, with count.members', async () => {
    const label = first(await addLabel({ name: 'Readable' }), 'labels');
    const byId = await t.admin.get(`/labels/${label.id}/?include=count.members`);
    expect(byId.statusCode).toBe(200);
    expect(first(byId, 'labels').count).toEqual({ members: 0 });
    const bySlug = await t.admin.get('/labels/slug/readable/');
    expect(first(bySlug, 'labels')).toEqual(label);
  });

  it('browses by name, with pagination, filter, fields and counts', async () => {
    const res = await t.admin.get('/labels/?include=count.members');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.labels.map((label: { name: string }) => label.name)).toEqual(['Other', 'Readable', 'Spaced', 'VIP Customers']);
    expect(body.labels[0].count).toEqual({ members: 0 });
    expect(body.meta.pagination).toEqual({ page: 1, limit: 15, pages: 1, total: 4, next: null, prev: null });
    const paged = (await t.admin.get('/labels/?limit=2&page=2')).json();
    expect(paged.labels.map((label: { name: string }) => label.name)).toEqual(['Spaced', 'VIP Customers']);
    const filtered = (await t.admin.get('/labels/?filter=slug:readable&fields=name')).json();
    expect(filtered.labels).toEqual([{ name: 'Readable' }]);
    const ordered = (await t.admin.get('/labels/?order=name%20desc&limit=1')).json();
    expect(ordered.labels[0].name).toBe('VIP Customers');
  });

  it('edits a label: a change purges the cache, an unchanged body writes nothing', async () => {
    const label = first(await addLabel({ name: 'Editable' }), 'labels');
    const same = await t.admin.put(`/labels/${label.id}/`, { labels: [{ name: 'Editable' }] });
    expect(same.statusCode).toBe(200);
    expect(same.headers['x-cache-invalidate']).toBeUndefined();
    expect(first(same, 'labels').updated_at).toBe(label.updated_at);
    const changed = await t.admin.put(`/labels/${label.id}/`, { labels: [{ name: ' Edited ', slug: 'Fresh Slug' }] });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers['x-cache-invalidate']).toBe('/*');
    expect(first(changed, 'labels')).toMatchObject({ id: label.id, name: 'Edited', slug: 'fresh-slug' });
  });

  it('edit to a name another label has → 422 Label already exists (Ghost answers 500)', async () => {
    const label = first(await addLabel({ name: 'Renamable' }), 'labels');
    const res = await t.admin.put(`/labels/${label.id}/`, { labels: [{ name: 'readable' }] });
    expectGhostError(res, { status: 422, message: 'Validation error, cannot edit label.', context: 'Label already exists' });
  });

  it('deletes a label with a cache purge', async () => {
    const label = first(await addLabel({ name: 'Doomed' }), 'labels');
    const res = await t.admin.del(`/labels/${label.id}/`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect((await t.admin.get(`/labels/${label.id}/`)).statusCode).toBe(404);
  });
});

describe('Admin labels: validation', () => {
  const cases: [string, unknown, string, string | null][] = [
    ['no body', {}, 'Validation failed for labels.', 'labels'],
    ['empty list', { labels: [] }, 'Validation failed for labels.', 'labels'],
    ['no name', { labels: [{ slug: 'x' }] }, 'Validation failed for labels[0].', 'labels[0]'],
    ['empty name', { labels: [{ name: '' }] }, 'Validation failed for name.', 'name'],
    ['name starting with a comma', { labels: [{ name: ',a' }] }, 'Validation failed for name.', 'name'],
    ['name of 192', { labels: [{ name: 'x'.repeat(192) }] }, 'Validation failed for name.', 'name'],
    ['slug of 192', { labels: [{ name: 'a', slug: 'x'.repeat(192) }] }, 'Validation failed for slug.', 'slug'],
    ['name not a string', { labels: [{ name: 5 }] }, 'Validation failed for name.', 'name'],
    ['a name of spaces', { labels: [{ name: '   ' }] }, 'Value in [labels.name] cannot be blank.', null],
  ];
  it.each(cases)('add with %s → 422, nothing written', async (_label, body, context, property) => {
    const before = await labelCount();
    const res = await t.admin.post('/labels/', body);
    expectRefused(res, 422, 'save label');
    expect(ghostError(res).context).toContain(context);
    if (property) expect(ghostError(res).property).toBe(property);
    expect(await labelCount()).toBe(before);
  });
});

describe('Admin labels: not found and permissions', () => {
  itAnswersNotFound(
    t,
    [
      ['GET', `/labels/${UNKNOWN}/`, 'Resource not found error, cannot read label.', 'Label not found.'],
      ['GET', '/labels/slug/nope/', 'Resource not found error, cannot read label.', 'Label not found.'],
      ['PUT', `/labels/${UNKNOWN}/`, 'Resource not found error, cannot edit label.', 'Resource could not be found.'],
      ['DELETE', `/labels/${UNKNOWN}/`, 'Resource not found error, cannot delete label.', 'Resource could not be found.'],
    ],
    () => ({ labels: [{ name: 'x' }] }),
  );

  it('Authors may read labels but not add them; Contributors may not read them', async () => {
    const author = await t.session(await makeStaff(t, 'Author'));
    expect((await t.admin.get('/labels/', author)).statusCode).toBe(200);
    expect(ghostError(await t.admin.post('/labels/', { labels: [{ name: 'Nope' }] }, author))).toMatchObject({
      type: 'NoPermissionError',
      message: 'Permission error, cannot save label.',
      context: 'You do not have permission to add labels',
    });
    const contributor = await t.session(await makeStaff(t, 'Contributor'));
    expect((await t.admin.get('/labels/', contributor)).statusCode).toBe(403);
  });
});
