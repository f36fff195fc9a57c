import { describe, expect, it } from 'vitest';
import { ghostError, expectGhostError, expectRefused } from '../../../test/support.js';
import { makeIntegration, makeStaff } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';
import { WEBHOOK_EVENTS } from './webhooks.events.js';

const t = useTestSite();

const TARGET = 'https://203.0.113.10/hook';
let n = 0;
const hook = (fields: Record<string, unknown> = {}) => ({ webhooks: [{ event: 'post.added', target_url: `${TARGET}/${++n}`, ...fields }] });

describe('adding', () => {
  it("creates a webhook for the calling integration, 201 without Location, in Ghost's shape", async () => {
    const res = await t.admin.post(
      '/webhooks/',
      hook({ name: 'Rebuild', secret: 's3cret', bogus: 1, integration_id: '0123456789abcdef01234567' }),
      t.integration(),
    );
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBeUndefined();
    const [webhook] = res.json().webhooks;
    expect(Object.keys(webhook).sort()).toEqual(
      [
        'api_version',
        'created_at',
        'event',
        'id',
        'integration_id',
        'last_triggered_at',
        'last_triggered_error',
        'last_triggered_status',
        'name',
        'secret',
        'target_url',
        'updated_at',
      ].sort(),
    );
    expect(webhook).toMatchObject({
      event: 'post.added',
      name: 'Rebuild',
      secret: 's3cret',
      api_version: 'v5.130',
      // An integration key always makes webhooks for its own integration.
      integration_id: t.keys.integrationId,
      last_triggered_at: null,
      last_triggered_status: null,
      last_triggered_error: null,
    });
    expect(webhook.created_at).toMatch(/\.000Z$/);
  });

  it('needs integration_id from staff, and an existing one', async () => {
    const missing = await t.admin.post('/webhooks/', hook());
    expectRefused(missing, 422, 'save webhook', {
      context: "Validation failed for 'integration_id'. You may only create webhooks with 'integration_id' when using session authentication.",
    });
    const unknown = await t.admin.post('/webhooks/', hook({ integration_id: '0123456789abcdef01234567' }));
    expect(unknown.statusCode).toBe(422);
    expect(ghostError(unknown).context).toBe("Validation failed for 'integration_id'. 'integration_id' value does not match any existing integration.");
    const ok = await t.admin.post('/webhooks/', hook({ integration_id: t.keys.integrationId }));
    expect(ok.statusCode).toBe(201);
  });

  it('refuses the same event and target twice, ignoring case', async () => {
    const first = await t.admin.post('/webhooks/', hook({ target_url: 'https://203.0.113.10/Same' }), t.integration());
    expect(first.statusCode).toBe(201);
    const again = await t.admin.post('/webhooks/', hook({ target_url: 'https://203.0.113.10/same' }), t.integration());
    expectGhostError(again, { status: 422, message: 'Validation error, cannot save webhook.', context: 'Target URL has already been used for this event.' });
  });

  it('validates the body with the schema', async () => {
    const cases: [object, number, string][] = [
      [{}, 422, 'Validation failed for webhooks.'],
      // ajv 6 reports a missing property at its parent's path.
      [{ webhooks: [{ target_url: TARGET }] }, 422, 'Validation failed for webhooks[0].'],
      [{ webhooks: [{ event: 'post.added' }] }, 422, 'Validation failed for webhooks[0].'],
      [{ webhooks: [{ event: 'Post.Added', target_url: TARGET }] }, 422, 'Validation failed for event.'],
      [{ webhooks: [{ event: 'e'.repeat(51), target_url: TARGET }] }, 422, 'Validation failed for event.'],
      [{ webhooks: [{ event: 'post.added', target_url: 'not a url' }] }, 422, 'Validation failed for target_url.'],
      [{ webhooks: [{ event: 'post.added', target_url: TARGET, secret: 5 }] }, 422, 'Validation failed for secret.'],
    ];
    for (const [body, status, context] of cases) {
      const res = await t.admin.post('/webhooks/', body, t.integration());
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(ghostError(res), JSON.stringify(body)).toMatchObject({ message: 'Validation error, cannot save webhook.', context });
    }
  });

  it('refuses targets on loopback, private and link-local addresses (WEBHOOK_ALLOW_PRIVATE is off)', async () => {
    for (const target of [
      'http://127.0.0.1:9/x',
      'http://localhost/x',
      'http://10.1.2.3/x',
      'http://192.168.0.1/',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
    ]) {
      const res = await t.admin.post('/webhooks/', hook({ target_url: target }), t.integration());
      expect(res.statusCode, target).toBe(422);
      expect(ghostError(res)).toMatchObject({ type: 'ValidationError', property: 'target_url' });
      // The refusal says how to allow it (a receiver on the same machine is the first thing people try).
      expect(ghostError(res).context).toMatch(/WEBHOOK_ALLOW_PRIVATE=true/);
    }
  });

  it('accepts every event Ghost fires and refuses any other name, listing them (Ghost stores it and never calls it)', async () => {
    for (const event of WEBHOOK_EVENTS) expect((await t.admin.post('/webhooks/', hook({ event }), t.integration())).statusCode, event).toBe(201);
    expect(WEBHOOK_EVENTS).toHaveLength(29);
    const before = await t.db
      .selectFrom('webhooks')
      .select(({ fn }) => fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const refused = await t.admin.post('/webhooks/', hook({ event: 'post.exploded' }), t.integration());
    expect(refused.statusCode).toBe(422);
    expect(ghostError(refused)).toMatchObject({
      type: 'ValidationError',
      message: 'Validation error, cannot save webhook.',
      property: 'event',
      details: null,
    });
    expect(ghostError(refused).context).toBe(
      `Validation failed for event. Unknown event 'post.exploded'. Webhooks can subscribe to: ${WEBHOOK_EVENTS.join(', ')}.`,
    );
    expect(ghostError(refused).context).toContain('site.changed, post.added,');
    const after = await t.db
      .selectFrom('webhooks')
      .select(({ fn }) => fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const created = (await t.admin.post('/webhooks/', hook(), t.integration())).json().webhooks[0];
    const edit = await t.admin.put(`/webhooks/${created.id}/`, { webhooks: [{ event: 'subscriber.added' }] }, t.integration());
    expect(edit.statusCode).toBe(422);
    expect(ghostError(edit).context).toMatch(/^Validation failed for event\. Unknown event 'subscriber\.added'\./);
  });
});

describe('editing and deleting', () => {
  it('edits the fields Ghost takes and keeps the integration', async () => {
    const created = (await t.admin.post('/webhooks/', hook(), t.integration())).json().webhooks[0];
    const other = await makeIntegration(t);
    const res = await t.admin.put(
      `/webhooks/${created.id}/`,
      { webhooks: [{ name: 'Renamed', event: 'post.published', secret: null, integration_id: other.integrationId }] },
      t.integration(),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().webhooks[0]).toMatchObject({
      id: created.id,
      name: 'Renamed',
      event: 'post.published',
      secret: null,
      integration_id: t.keys.integrationId,
    });
    // Staff may edit any integration's webhook.
    const bySession = await t.admin.put(`/webhooks/${created.id}/`, { webhooks: [{ name: 'Again' }] });
    expect(bySession.statusCode).toBe(200);
    const refused = await t.admin.put(`/webhooks/${created.id}/`, { webhooks: [{ target_url: 'http://10.0.0.1/' }] });
    expect(refused.statusCode).toBe(422);
  });

  it("keeps an integration key to its own integration's webhooks", async () => {
    const other = await makeIntegration(t);
    const theirs = (
      await t.admin.post('/webhooks/', hook(), { authorization: `Ghost ${(await import('../../auth/admin-jwt.js')).signAdminToken(other.adminKey)}` })
    ).json().webhooks[0];
    const edit = await t.admin.put(`/webhooks/${theirs.id}/`, { webhooks: [{ name: 'x' }] }, t.integration());
    expectRefused(edit, 403, 'edit webhook', {
      context:
        'You do not have permission to edit this webhook. You may only edit webhooks that belong to the authenticated integration. Check the supplied Admin API Key.',
    });
    const del = await t.admin.del(`/webhooks/${theirs.id}/`, t.integration());
    expect(del.statusCode).toBe(403);
    expect(ghostError(del).context).toMatch(/^You do not have permission to destroy this webhook\. You may only destroy webhooks/);
  });

  it('answers 404 with the messages Ghost gives each kind of caller', async () => {
    const id = '0123456789abcdef01234567';
    const asIntegration = await t.admin.put(`/webhooks/${id}/`, { webhooks: [{ name: 'x' }] }, t.integration());
    expectGhostError(asIntegration, { status: 404, message: 'Resource not found error, cannot edit webhook.', context: 'Webhook not found.' });
    const asStaff = await t.admin.del(`/webhooks/${id}/`);
    expectGhostError(asStaff, { status: 404, message: 'Resource not found error, cannot delete webhook.', context: 'Resource could not be found.' });
    const badId = await t.admin.put('/webhooks/abc/', { webhooks: [{ name: 'x' }] });
    expect(badId.statusCode).toBe(422);
  });

  it('deletes with 204, and Editors may not', async () => {
    const created = (await t.admin.post('/webhooks/', hook(), t.integration())).json().webhooks[0];
    const editor = await t.session(await makeStaff(t, 'Editor'));
    const refused = await t.admin.del(`/webhooks/${created.id}/`, editor);
    expect(refused.statusCode).toBe(403);
    const res = await t.admin.del(`/webhooks/${created.id}/`, t.integration());
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await t.db.selectFrom('webhooks').select('id').where('id', '=', created.id).executeTakeFirst()).toBeUndefined();
  });

  it('has no list or read route, as in Ghost', async () => {
    expect((await t.admin.get('/webhooks/')).statusCode).toBe(404);
  });
});

describe('integrations include=webhooks', () => {
  it('lists webhooks on browse and read only when included, and deletes them with the integration', async () => {
    const integration = await makeIntegration(t);
    const made = await t.admin.post('/webhooks/', hook({ integration_id: integration.integrationId }));
    expect(made.statusCode).toBe(201);
    const read = (await t.admin.get(`/integrations/${integration.integrationId}/?include=webhooks`)).json().integrations[0];
    expect(read.webhooks.map((w: { id: string }) => w.id)).toEqual([made.json().webhooks[0].id]);
    expect(read).not.toHaveProperty('api_keys');
    const plain = (await t.admin.get(`/integrations/${integration.integrationId}/`)).json().integrations[0];
    expect(plain).not.toHaveProperty('webhooks');
    const list = (await t.admin.get('/integrations/?include=webhooks,api_keys&limit=all')).json().integrations;
    expect(list.every((i: { webhooks: unknown[]; api_keys: unknown[] }) => Array.isArray(i.webhooks) && Array.isArray(i.api_keys))).toBe(true);
    expect((await t.admin.del(`/integrations/${integration.integrationId}/`)).statusCode).toBe(204);
    expect(await t.db.selectFrom('webhooks').select('id').where('integration_id', '=', integration.integrationId).execute()).toEqual([]);
  });
});
