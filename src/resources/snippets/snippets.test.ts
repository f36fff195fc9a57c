import { describe, expect, it } from 'vitest';
import { ADMIN, SITE_URL, ghostError, expectGhostError, expectRefused } from '../../../test/support.js';
import { lexicalOf, makeStaff } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite();

const MOBILEDOC = JSON.stringify({
  version: '0.3.1',
  atoms: [],
  cards: [],
  markups: [['a', ['href', `${SITE_URL}about/`]]],
  sections: [[1, 'p', [[0, [0], 1, 'About']]]],
});
let fresh = 0;
const name = () => `Snippet ${++fresh}`;
const add = (body: Record<string, unknown>, query = '') => t.admin.post(`/snippets/${query}`, { snippets: [body] });

describe('adding and reading', () => {
  it('creates a snippet: 201, Location, mobiledoc only by default', async () => {
    const res = await add({ name: 'Footer', mobiledoc: MOBILEDOC, lexical: lexicalOf('hi') });
    expect(res.statusCode).toBe(201);
    const [snippet] = res.json().snippets;
    expect(res.headers.location).toBe(`http://localhost:80${ADMIN}/snippets/${snippet.id}/`);
    expect(Object.keys(snippet)).toEqual(['id', 'name', 'mobiledoc', 'created_at', 'updated_at']);
    expect(snippet.mobiledoc).toBe(MOBILEDOC);
    expect(snippet.created_at).toMatch(/\.000Z$/);
    // Links to the site are stored transform-ready and shown absolute.
    const stored = await t.db.selectFrom('snippets').select('mobiledoc').where('id', '=', snippet.id).executeTakeFirstOrThrow();
    expect(stored.mobiledoc).toContain('__GHOST_URL__/about/');

    const read = await t.admin.get(`/snippets/${snippet.id}/?formats=lexical`);
    expect(Object.keys(read.json().snippets[0])).toEqual(['id', 'name', 'lexical', 'created_at', 'updated_at']);
    const both = await t.admin.get(`/snippets/${snippet.id}/?formats=mobiledoc,lexical`);
    expect(both.json().snippets[0]).toMatchObject({ mobiledoc: MOBILEDOC, lexical: lexicalOf('hi') });
  });

  it('browses with pagination, filter and order', async () => {
    await add({ name: 'Browse A', mobiledoc: MOBILEDOC });
    await add({ name: 'Browse B', mobiledoc: MOBILEDOC });
    const res = await t.admin.get(`/snippets/?filter=${encodeURIComponent("name:~'Browse'")}&order=name%20desc&limit=1`);
    expect(res.statusCode).toBe(200);
    expect(res.json().snippets.map((s: { name: string }) => s.name)).toEqual(['Browse B']);
    expect(res.json().meta.pagination).toMatchObject({ page: 1, limit: 1, pages: 2, total: 2 });
  });

  it('answers 404 for an unknown snippet and 422 for bad formats', async () => {
    const missing = await t.admin.get(`/snippets/${'a'.repeat(24)}/`);
    expectRefused(missing, 404, 'read snippet', { context: 'Snippet not found.' });
    const formats = await t.admin.get('/snippets/?formats=html');
    expectGhostError(formats, { status: 422, message: 'Validation error, cannot list snippets.', context: 'Validation (AllowedValues) failed for formats' });
  });
});

describe('validation', () => {
  it('requires name and mobiledoc, as JSON, and a unique name; writes nothing on failure', async () => {
    const before = (await t.admin.get('/snippets/?limit=all')).json().meta.pagination.total;
    const noMobiledoc = await add({ name: name() });
    expectRefused(noMobiledoc, 422, 'save snippet', { context: 'Validation failed for snippets[0].' });
    const notJson = await add({ name: name(), mobiledoc: '{nope' });
    expect(notJson.statusCode).toBe(422);
    expect(ghostError(notJson).context).toBe('Validation failed for mobiledoc.');
    const long = await add({ name: 'x'.repeat(192), mobiledoc: MOBILEDOC });
    expect(long.statusCode).toBe(422);
    const unique = name();
    expect((await add({ name: unique, mobiledoc: MOBILEDOC })).statusCode).toBe(201);
    const duplicate = await add({ name: unique, mobiledoc: MOBILEDOC });
    expectRefused(duplicate, 422, 'save snippet', { context: 'Snippet already exists.' });
    expect((await t.admin.get('/snippets/?limit=all')).json().meta.pagination.total).toBe(before + 1);
  });
});

describe('editing and deleting', () => {
  it('edits name and content; 404 for unknown ids; delete answers 204 and the snippet is gone', async () => {
    const id = (await add({ name: name(), mobiledoc: MOBILEDOC })).json().snippets[0].id;
    const edited = await t.admin.put(`/snippets/${id}/?formats=lexical`, { snippets: [{ name: 'Renamed', mobiledoc: MOBILEDOC, lexical: lexicalOf('new') }] });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().snippets[0]).toMatchObject({ id, name: 'Renamed', lexical: lexicalOf('new') });
    const missing = await t.admin.put(`/snippets/${'b'.repeat(24)}/`, { snippets: [{ name: 'x', mobiledoc: MOBILEDOC }] });
    expectGhostError(missing, { status: 404, message: 'Resource not found error, cannot edit snippet.', context: 'Snippet not found.' });

    const deleted = await t.admin.del(`/snippets/${id}/`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await t.admin.get(`/snippets/${id}/`)).statusCode).toBe(404);
    expect((await t.admin.del(`/snippets/${id}/`)).statusCode).toBe(404);
  });
});

describe('permissions', () => {
  it('lets contributors read but not write, and keeps integrations out (501)', async () => {
    const contributor = await makeStaff(t, 'Contributor');
    const as = await t.session(contributor);
    expect((await t.admin.get('/snippets/', as)).statusCode).toBe(200);
    const refused = await t.admin.post('/snippets/', { snippets: [{ name: name(), mobiledoc: MOBILEDOC }] }, as);
    expectGhostError(refused, { status: 403, message: 'Permission error, cannot save snippet.', context: 'You do not have permission to add snippets' });
    expect((await t.admin.get('/snippets/', t.integration())).statusCode).toBe(501);
  });
});
