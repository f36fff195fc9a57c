import { describe, expect, it } from 'vitest';
import { ADMIN, ghostError, expectGhostError } from '../../../test/support.js';
import { makeStaff } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite();

const add = (fields: Record<string, unknown>) => t.admin.post('/recommendations/', { recommendations: [fields] });

describe('recommendations', () => {
  it('starts empty with Ghost’s paging (5 a page, no pages)', async () => {
    const res = await t.admin.get('/recommendations/');
    expect(res.json()).toEqual({ recommendations: [], meta: { pagination: { page: 1, limit: 5, total: 0, pages: 0, prev: null, next: null } } });
    expect((await t.admin.get('/incoming_recommendations/')).json()).toEqual({
      recommendations: [],
      meta: { pagination: { page: 1, limit: 5, pages: 1, total: 0, next: null, prev: null } },
    });
  });

  it('adds one: 201, Location, cache purge, every field', async () => {
    const res = await add({ title: 'Other Site', url: 'https://example.com/blog', excerpt: 'Good', one_click_subscribe: true, bogus: 1 });
    expect(res.statusCode).toBe(201);
    const [rec] = res.json().recommendations;
    expect(res.headers.location).toBe(`http://localhost:80${ADMIN}/recommendations/${rec.id}/`);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    expect(rec).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      title: 'Other Site',
      description: null,
      excerpt: 'Good',
      featured_image: null,
      favicon: null,
      url: 'https://example.com/blog',
      one_click_subscribe: true,
      created_at: expect.stringMatching(/\.000Z$/),
      updated_at: null,
    });
    const content = await t.content.get('/recommendations/');
    expect(content.json().recommendations.map((r: { id: string }) => r.id)).toEqual([rec.id]);
    const counted = await t.admin.get('/recommendations/?include=count.clicks,count.subscribers');
    expect(counted.json().recommendations[0].count).toEqual({ clicks: 0, subscribers: 0 });
  });

  it('validates as Ghost’s service does and refuses a second recommendation of the same site', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'https://a.example/' }, 'recommendations.0.title is required'],
      [{ title: 'x', url: 'notaurl' }, 'recommendations.0.url must be a valid URL'],
      [{ title: 'x', url: 'ftp://a.example/' }, 'recommendations.0.url must be a valid URL'],
      [{ title: '', url: 'https://a.example/' }, 'Title must not be empty'],
      [{ title: 'x', url: 'https://a.example/', description: 'd'.repeat(201) }, 'Description must be less than 200 characters'],
      [{ title: 'x', url: 'https://a.example/', one_click_subscribe: 'yes' }, 'recommendations.0.one_click_subscribe must be a boolean'],
      [{ title: 'x', url: 'http://www.example.com/blog/?ref=1' }, 'A recommendation with this URL already exists.'],
    ];
    for (const [body, context] of cases) {
      const res = await add(body);
      expect(res.statusCode, context).toBe(422);
      expect(ghostError(res)).toMatchObject({ type: 'ValidationError', message: 'Validation error, cannot save recommendation.', context });
    }
    expect((await t.admin.get('/recommendations/')).json().meta.pagination.total).toBe(1);
  });

  it('edits, checks, reads and deletes', async () => {
    const id = (await add({ title: 'Edit Me', url: 'https://edit.example/' })).json().recommendations[0].id;
    const edited = await t.admin.put(`/recommendations/${id}/`, { recommendations: [{ title: 'Edited', description: '' }] });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().recommendations[0]).toMatchObject({ id, title: 'Edited', description: null, updated_at: expect.stringMatching(/Z$/) });
    const check = await t.admin.post('/recommendations/check/', { recommendations: [{ url: 'https://edit.example' }] });
    expect(check.json().recommendations[0]).toMatchObject({ id, title: 'Edited' });
    const fresh = await t.admin.post('/recommendations/check/', { recommendations: [{ url: 'https://new.example/' }] });
    expect(fresh.json().recommendations[0]).toMatchObject({ id: null, title: null, url: 'https://new.example/' });
    expect((await t.admin.get(`/recommendations/${id}/`)).json().recommendations[0].title).toBe('Edited');
    expect((await t.admin.del(`/recommendations/${id}/`)).statusCode).toBe(204);
    const missing = await t.admin.get(`/recommendations/${id}/`);
    expectGhostError(missing, {
      status: 404,
      message: 'Resource not found error, cannot read recommendation.',
      context: `Recommendation with id ${id} not found`,
    });
    expect((await t.admin.put(`/recommendations/${id}/`, { recommendations: [{ title: 'x' }] })).statusCode).toBe(404);
  });

  it('lets every staff role read and only Administrators write; integrations get 501', async () => {
    const contributor = await makeStaff(t, 'Contributor');
    const as = await t.session(contributor);
    expect((await t.admin.get('/recommendations/', as)).statusCode).toBe(200);
    const refused = await t.admin.post('/recommendations/', { recommendations: [{ title: 'x', url: 'https://x.example/' }] }, as);
    expect(refused.statusCode).toBe(403);
    expect((await t.admin.get('/recommendations/', t.integration())).statusCode).toBe(501);
  });
});
