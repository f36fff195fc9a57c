import { describe, expect, it } from 'vitest';
import { ADMIN, adminAuth, ghostError, expectGhostError, expectRefused } from '../../../test/support.js';
import { useTestSite } from '../../../test/test-site.js';

const t = useTestSite();

async function count(): Promise<number> {
  return (await t.admin.get('/integrations/?limit=all')).json().meta.pagination.total;
}

describe('adding', () => {
  it('creates a custom integration with one content and one admin key, 201 and Location', async () => {
    const res = await t.admin.post('/integrations/', {
      integrations: [{ name: 'My App', description: 'Syncs posts', icon_image: 'https://example.com/i.png', bogus: 1 }],
    });
    expect(res.statusCode).toBe(201);
    const [integration] = res.json().integrations;
    expect(res.headers.location).toBe(`http://localhost:80${ADMIN}/integrations/${integration.id}/`);
    expect(integration).toMatchObject({ type: 'custom', name: 'My App', slug: 'my-app', description: 'Syncs posts', icon_image: 'https://example.com/i.png' });
    expect(integration).not.toHaveProperty('bogus');
    expect(integration.id).toMatch(/^[0-9a-f]{24}$/);
    expect(integration.created_at).toMatch(/\.000Z$/);
    const content = integration.api_keys.find((k: { type: string }) => k.type === 'content');
    const admin = integration.api_keys.find((k: { type: string }) => k.type === 'admin');
    expect(content.secret).toMatch(/^[0-9a-f]{26}$/);
    expect(admin.secret).toBe(`${admin.id}:${admin.secret.split(':')[1]}`);
    expect(admin.secret).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
    expect(admin.role_id).toMatch(/^[0-9a-f]{24}$/);
    expect(content.role_id).toBeNull();
    expect(Object.keys(admin).sort()).toEqual([
      'created_at',
      'id',
      'integration_id',
      'last_seen_at',
      'last_seen_version',
      'role_id',
      'secret',
      'type',
      'updated_at',
      'user_id',
    ]);
  });

  it('deduplicates slugs', async () => {
    const res = await t.admin.post('/integrations/', { integrations: [{ name: 'My App' }] });
    expect(res.json().integrations[0].slug).toBe('my-app-2');
  });

  it('validates the body with Ghost messages and writes nothing on failure', async () => {
    const before = await count();
    const cases: [object, number, string, string][] = [
      [{}, 400, 'BadRequestError', "No root key ('integrations') provided."],
      [{ integrations: [{}] }, 400, 'BadRequestError', "No root key ('integrations') provided."],
      [{ integrations: [{ description: 'x' }] }, 422, 'ValidationError', 'Validation (FieldIsRequired) failed for ["name"]'],
      [{ integrations: [{ name: null }] }, 422, 'ValidationError', 'Validation (FieldIsInvalid) failed for ["name"]'],
      [
        { integrations: [{ name: 'a'.repeat(192) }] },
        422,
        'ValidationError',
        'Value in [integrations.name] exceeds maximum length of 191 characters. integrations.name',
      ],
      [
        { integrations: [{ name: 'ok', description: 'd'.repeat(2001) }] },
        422,
        'ValidationError',
        'Value in [integrations.description] exceeds maximum length of 2000 characters. integrations.description',
      ],
    ];
    for (const [payload, status, type, context] of cases) {
      const res = await t.admin.post('/integrations/', payload);
      expect(res.statusCode, context).toBe(status);
      const verb = status === 400 ? 'Request not understood error' : 'Validation error';
      expect(ghostError(res)).toMatchObject({ type, message: `${verb}, cannot save integration.`, context });
    }
    expect(await count()).toBe(before);
  });
});

describe('reading', () => {
  it('lists integrations with pagination, keys only when included', async () => {
    const res = await t.admin.get('/integrations/?limit=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.integrations).toHaveLength(2);
    expect(body.integrations[0]).toMatchObject({ type: 'builtin', slug: 'zapier' });
    expect(body.integrations[0]).not.toHaveProperty('api_keys');
    expect(body.meta.pagination).toMatchObject({ page: 1, limit: 2, next: 2, prev: null });
    const withKeys = (await t.admin.get('/integrations/?include=api_keys,nonsense')).json();
    expect(withKeys.integrations.every((i: { api_keys: unknown[] }) => i.api_keys.length >= 1)).toBe(true);
  });

  it('reads one by id', async () => {
    const created = (await t.admin.post('/integrations/', { integrations: [{ name: 'Reader' }] })).json().integrations[0];
    const res = await t.admin.get(`/integrations/${created.id}/?include=api_keys`);
    expect(res.statusCode).toBe(200);
    expect(res.json().integrations[0]).toMatchObject({ id: created.id, name: 'Reader' });
    expect(res.json().integrations[0].api_keys).toHaveLength(2);
  });

  it('answers 404 and 422 as Ghost does', async () => {
    const missing = await t.admin.get('/integrations/0123456789abcdef01234567/');
    expectRefused(missing, 404, 'read integration', { context: 'Resource could not be found.' });
    const bad = await t.admin.get('/integrations/abc/');
    expectRefused(bad, 422, 'read integration', { context: 'Validation (matches) failed for id undefined.id' });
    const badLimit = await t.admin.get('/integrations/?limit=abc');
    expect(badLimit.statusCode).toBe(422);
    expect(ghostError(badLimit).message).toBe('Validation error, cannot list integrations.');
  });
});

describe('editing', () => {
  it('renames an integration, keeping its slug, and returns its keys', async () => {
    const created = (await t.admin.post('/integrations/', { integrations: [{ name: 'Before' }] })).json().integrations[0];
    const res = await t.admin.put(`/integrations/${created.id}/`, { integrations: [{ name: 'After', description: null }] });
    expect(res.statusCode).toBe(200);
    const [edited] = res.json().integrations;
    expect(edited).toMatchObject({ name: 'After', slug: 'before', description: null });
    expect(edited.api_keys).toHaveLength(2);
  });

  it('answers 404 for an unknown id and 400 for a mismatched body id', async () => {
    const missing = await t.admin.put('/integrations/0123456789abcdef01234567/', { integrations: [{ name: 'x' }] });
    expectGhostError(missing, { status: 404, message: 'Resource not found error, cannot edit integration.', context: 'Integration not found.' });
    const created = (await t.admin.post('/integrations/', { integrations: [{ name: 'Mismatch' }] })).json().integrations[0];
    const mismatch = await t.admin.put(`/integrations/${created.id}/`, { integrations: [{ id: '0123456789abcdef01234567', name: 'x' }] });
    expectGhostError(mismatch, { status: 400, type: 'BadRequestError', context: 'Invalid id provided.' });
    const blank = await t.admin.put(`/integrations/${created.id}/`, { integrations: [{ name: '' }] });
    expect(blank.statusCode).toBe(422);
    expect(ghostError(blank).context).toBe('Value in [integrations.name] cannot be blank. integrations.name');
  });

  it('refreshes one key and answers 404 for a key of another integration', async () => {
    const created = (await t.admin.post('/integrations/', { integrations: [{ name: 'Refresh' }] })).json().integrations[0];
    const admin = created.api_keys.find((k: { type: string }) => k.type === 'admin');
    const content = created.api_keys.find((k: { type: string }) => k.type === 'content');
    const res = await t.admin.post(`/integrations/${created.id}/api_key/${admin.id}/refresh/`, { integrations: [{ id: created.id }] });
    expect(res.statusCode).toBe(200);
    const keys = res.json().integrations[0].api_keys;
    expect(keys.find((k: { type: string }) => k.type === 'admin').secret).not.toBe(admin.secret);
    expect(keys.find((k: { type: string }) => k.type === 'content').secret).toBe(content.secret);
    const other = await t.admin.post(`/integrations/${created.id}/api_key/0123456789abcdef01234567/refresh/`, { integrations: [{ id: created.id }] });
    expectGhostError(other, { status: 404, message: 'Resource not found error, cannot edit integration.', context: 'ApiKey not found.' });
  });
});

describe('deleting', () => {
  it('deletes with 204; its keys stop authenticating', async () => {
    const created = (await t.admin.post('/integrations/', { integrations: [{ name: 'Doomed' }] })).json().integrations[0];
    const adminKey = created.api_keys.find((k: { type: string }) => k.type === 'admin').secret;
    expect((await t.admin.get('/site/', adminAuth(adminKey))).statusCode).toBe(200);
    const res = await t.admin.del(`/integrations/${created.id}/`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const after = await t.admin.get('/integrations/', adminAuth(adminKey));
    expectGhostError(after, { status: 401, message: 'Unknown Admin API Key', code: 'UNKNOWN_ADMIN_API_KEY' });
    expect((await t.admin.get(`/integrations/${created.id}/`)).statusCode).toBe(404);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await t.admin.del('/integrations/0123456789abcdef01234567/');
    expectGhostError(res, { status: 404, message: 'Resource not found error, cannot delete integration.', context: 'Resource could not be found.' });
  });
});

describe('permissions', () => {
  it('refuses integration tokens with 501 on every integrations route', async () => {
    const keys: { type: string; secret: string }[] = (await t.admin.post('/integrations/', { integrations: [{ name: 'Token' }] })).json().integrations[0]
      .api_keys;
    const adminKey = keys.find((k) => k.type === 'admin')!.secret;
    for (const [method, path] of [
      ['GET', '/integrations/'],
      ['POST', '/integrations/'],
      ['DELETE', '/integrations/0123456789abcdef01234567/'],
    ] as const) {
      const res = await t.admin.request(method, path, {}, adminAuth(adminKey));
      expect(res.statusCode).toBe(501);
      expect(ghostError(res).type).toBe('NotImplementedError');
    }
  });
});
