import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../db/connect.js';
import { jobCtx } from '../../ctx.js';
import { ctxBaseFromConfig } from '../../ctx-base.js';
import { systemClock } from '../../clock.js';
import { JobRunner } from '../../jobs/runner.js';
import { pruneHistory } from '../../jobs/prune.js';
import { objectId } from '../../db/ids.js';
import { useTestSite } from '../../../test/test-site.js';
import { WebhookReceiver, eventually, pause, verifySignature } from '../../../test/webhook-receiver.js';
import { isWebhookEvent } from './webhooks.events.js';
import type { EventName } from '../../events/names.js';

/**
 * Delivery end to end: writes through the API, the app's own job runner, a real receiver on loopback.
 * Retries are fast here (WEBHOOK_RETRY_BASE_MS) and loopback targets allowed (WEBHOOK_ALLOW_PRIVATE).
 */
const t = useTestSite({
  jobs: true,
  settings: {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    JOBS_POLL_MS: '20',
    WEBHOOK_RETRY_BASE_MS: '20',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_MAX_ATTEMPTS: '4',
  },
});
const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

let n = 0;
/**
 * A webhook of the test integration for `event`, posting to a fresh path of the receiver. The API takes Ghost's
 * event names only; these tests give each webhook a name of its own (`test.retry`…), so no other test's writes
 * reach it, and store it as a webhook saved before names were checked (or imported) would be.
 */
async function subscribe(event: string, secret: string | null = null): Promise<{ id: string; path: string }> {
  const path = `/hook-${++n}`;
  const target_url = `${receiver.url}${path}`;
  if (isWebhookEvent(event)) {
    const res = await t.admin.post('/webhooks/', { webhooks: [{ event, target_url, secret }] }, t.integration());
    expect(res.statusCode).toBe(201);
    return { id: res.json().webhooks[0].id, path };
  }
  const at = new Date();
  const id = objectId();
  await t.db
    .insertInto('webhooks')
    .values({
      id,
      event,
      target_url,
      name: null,
      secret,
      api_version: 'v5.130',
      integration_id: t.keys.integrationId,
      last_triggered_at: null,
      last_triggered_status: null,
      last_triggered_error: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { id, path };
}

async function webhookRow(id: string) {
  return t.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records events straight through a job ctx (any lower-case event name can be subscribed to). */
async function recordEvents(name: string, payloads: unknown[]): Promise<void> {
  const ctx = jobCtx(ctxBaseFromConfig(t.config, t.connection, console, { clock: systemClock }));
  for (const payload of payloads) await ctx.write(async (w) => w.events.record(name as EventName, payload as never));
}

describe('delivery', () => {
  it("POSTs Ghost's headers and a signature the receiver verifies, and keeps last_triggered_* as Ghost does", async () => {
    const hook = await subscribe('test.signed', 'top-secret');
    await recordEvents('test.signed', [{ post: { current: { title: 'Signed' }, previous: {} } }]);
    await eventually(() => receiver.on(hook.path).length === 1, 10_000, 'the delivery');
    const [got] = receiver.on(hook.path);
    expect(verifySignature(got!, 'top-secret')).toBe(true);
    expect(verifySignature(got!, 'wrong')).toBe(false);
    expect(got!.headers).toMatchObject({
      'content-type': 'application/json',
      'content-version': 'v5.130',
      'user-agent': 'Ghost/5.130 (https://github.com/TryGhost/Ghost)',
      'content-length': String(Buffer.byteLength(got!.body)),
    });
    expect(got!.json).toEqual({ post: { current: { title: 'Signed' }, previous: {} } });
    const ts = Number(/t=(\d+)$/.exec(String(got!.headers['x-ghost-signature']))![1]);
    expect(Math.abs(ts - Date.now())).toBeLessThan(60_000);
    await eventually(async () => (await webhookRow(hook.id))?.last_triggered_status === '200', 5000, 'the bookkeeping');
    const row = (await webhookRow(hook.id))!;
    expect(row.last_triggered_error).toBeNull();
    expect(row.last_triggered_at).not.toBeNull();
    const listed = (await t.admin.get(`/integrations/${t.keys.integrationId}/?include=webhooks`)).json().integrations[0].webhooks;
    expect(listed.find((w: { id: string }) => w.id === hook.id)).toMatchObject({ last_triggered_status: '200', last_triggered_error: null });
    // Without a secret there is no signature header.
    const unsigned = await subscribe('test.unsigned');
    await recordEvents('test.unsigned', [{}]);
    await eventually(() => receiver.on(unsigned.path).length === 1, 10_000, 'the unsigned delivery');
    expect(receiver.on(unsigned.path)[0]!.headers).not.toHaveProperty('x-ghost-signature');
  });

  it('sends site.changed for a settings edit', async () => {
    const hook = await subscribe('site.changed');
    const res = await t.admin.put('/settings/', { settings: [{ key: 'title', value: 'Renamed site' }] });
    expect(res.statusCode).toBe(200);
    await eventually(() => receiver.on(hook.path).length === 1, 10_000, 'site.changed');
    expect(receiver.on(hook.path)[0]!.json).toEqual({});
    await t.admin.del(`/webhooks/${hook.id}/`, t.integration());
  });

  it('retries 5xx and 429 with backoff and delivers exactly once more after the failures', async () => {
    const hook = await subscribe('test.retry');
    receiver.script(hook.path, [500, 429, 200]);
    await recordEvents('test.retry', [{ n: 1 }]);
    await eventually(() => receiver.on(hook.path).length === 3, 10_000, 'three attempts');
    await pause(300);
    expect(receiver.on(hook.path)).toHaveLength(3);
    const [delivery] = (await t.admin.get(`/webhooks/${hook.id}/deliveries/`, t.integration())).json().deliveries;
    expect(delivery).toMatchObject({ event: 'test.retry', status: 'delivered', attempts: 3, response_status: 200, error: null, next_attempt_at: null });
    expect(delivery.latency_ms).toEqual(expect.any(Number));
    expect((await webhookRow(hook.id))!.last_triggered_status).toBe('200');
  });

  it("marks a delivery failed after the attempt limit, with Ghost's last_triggered_error", async () => {
    const hook = await subscribe('test.fail');
    receiver.script(hook.path, [503]);
    await recordEvents('test.fail', [{ n: 1 }]);
    await eventually(
      async () => (await t.db.selectFrom('webhook_deliveries').select('status').where('webhook_id', '=', hook.id).executeTakeFirst())?.status === 'failed',
    );
    expect(receiver.on(hook.path)).toHaveLength(4);
    expect(await webhookRow(hook.id)).toMatchObject({ last_triggered_status: '503', last_triggered_error: 'Request failed: ERR_NON_2XX_3XX_RESPONSE' });
    // A 4xx other than 410 and 429 is final at once.
    const final = await subscribe('test.final');
    receiver.script(final.path, [400]);
    await recordEvents('test.final', [{}]);
    await eventually(
      async () => (await t.db.selectFrom('webhook_deliveries').select('status').where('webhook_id', '=', final.id).executeTakeFirst())?.status === 'failed',
    );
    expect(receiver.on(final.path)).toHaveLength(1);
  });

  it('deletes the webhook when the receiver answers 410', async () => {
    const hook = await subscribe('test.gone');
    receiver.script(hook.path, [410]);
    await recordEvents('test.gone', [{}]);
    await eventually(async () => (await webhookRow(hook.id)) === undefined, 10_000, 'the webhook to go');
    expect(receiver.on(hook.path)).toHaveLength(1);
  });

  it('records a network error as Ghost does and retries it', async () => {
    const { id } = await subscribe('test.refused');
    // A port nothing listens on: connection refused.
    await t.db
      .updateTable('webhooks')
      .set({ target_url: `http://127.0.0.1:1/unreachable-${n}` })
      .where('id', '=', id)
      .execute();
    await recordEvents('test.refused', [{}]);
    await eventually(async () => (await webhookRow(id))?.last_triggered_error === 'Request failed: ECONNREFUSED', 10_000, 'the error');
    expect((await webhookRow(id))!.last_triggered_status).toBeNull();
  });

  it("keeps each webhook's deliveries in event order across retries", async () => {
    const hook = await subscribe('test.order');
    receiver.script(hook.path, [500, 200]);
    await recordEvents(
      'test.order',
      [1, 2, 3, 4, 5].map((i) => ({ i })),
    );
    await eventually(() => receiver.on(hook.path).length === 6, 10_000, 'six requests');
    expect(receiver.on(hook.path).map((r) => r.json.i)).toEqual([1, 1, 2, 3, 4, 5]);
  });

  it('keeps event order when a delivery sent in a run of one claim fails: the rest wait behind its retry', async () => {
    const hook = await subscribe('test.run');
    receiver.script(hook.path, [...Array<number>(10).fill(200), 500, 200]);
    const numbers = Array.from({ length: 40 }, (_, i) => i + 1);
    await recordEvents(
      'test.run',
      numbers.map((i) => ({ i })),
    );
    await eventually(() => receiver.on(hook.path).length === 41, 20_000, 'forty-one requests');
    expect(receiver.on(hook.path).map((r) => r.json.i)).toEqual([...numbers.slice(0, 11), ...numbers.slice(10)]);
    // Answers are recorded behind the sending: the last one may land just after the receiver saw it.
    const recorded = () => t.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('webhook_id', '=', hook.id).execute();
    await eventually(async () => (await recorded()).every((row) => row.status === 'delivered'), 5000, 'the answers recorded');
    const rows = await recorded();
    expect(rows.map((row) => row.status)).toEqual(Array(40).fill('delivered'));
    expect(rows.reduce((sum, row) => sum + row.attempts, 0)).toBe(41);
  });

  it('does not hold up API answers while a receiver hangs', async () => {
    const hook = await subscribe('site.changed');
    receiver.script(hook.path, ['hang']);
    await t.admin.put('/settings/', { settings: [{ key: 'description', value: 'First' }] });
    await eventually(() => receiver.hanging > 0, 10_000, 'a hanging request');
    const res = await t.admin.put('/settings/', { settings: [{ key: 'description', value: 'Second' }] });
    expect(res.statusCode).toBe(200);
    // The answer came while the receiver still held the first delivery open.
    expect(receiver.hanging).toBeGreaterThan(0);
    await t.admin.del(`/webhooks/${hook.id}/`, t.integration());
  });

  it('fires nothing for a write that rolled back', async () => {
    const hook = await subscribe('test.rollback');
    const ctx = jobCtx(ctxBaseFromConfig(t.config, t.connection, console, { clock: systemClock }));
    await expect(
      ctx.write(async (w) => {
        w.events.record('test.rollback' as EventName, { n: 1 } as never);
        throw new Error('the write fails after recording its event');
      }),
    ).rejects.toThrow('fails');
    await recordEvents('test.rollback', [{ n: 2 }]);
    await eventually(() => receiver.on(hook.path).length === 1, 10_000, 'the committed event');
    await pause(200);
    expect(receiver.on(hook.path).map((r) => r.json.n)).toEqual([2]);
    expect(await t.db.selectFrom('outbox').select('id').where('event', '=', 'test.rollback').execute()).toHaveLength(1);
  });

  it('redelivers a past delivery on request', async () => {
    const hook = await subscribe('test.redeliver');
    await recordEvents('test.redeliver', [{ n: 7 }]);
    await eventually(() => receiver.on(hook.path).length === 1);
    const [past] = (await t.admin.get(`/webhooks/${hook.id}/deliveries/`, t.integration())).json().deliveries;
    const res = await t.admin.post(`/webhooks/${hook.id}/deliveries/${past.id}/redeliver/`, undefined, t.integration());
    expect(res.statusCode).toBe(201);
    expect(res.json().deliveries[0]).toMatchObject({ event: 'test.redeliver', status: 'pending', attempts: 0 });
    await eventually(() => receiver.on(hook.path).length === 2);
    expect(receiver.on(hook.path)[1]!.body).toBe(receiver.on(hook.path)[0]!.body);
    const missing = await t.admin.post(`/webhooks/${hook.id}/deliveries/0123456789abcdef01234567/redeliver/`, undefined, t.integration());
    expect(missing.statusCode).toBe(404);
    const history = (await t.admin.get(`/webhooks/${hook.id}/deliveries/?limit=1`)).json().deliveries;
    expect(history).toHaveLength(1);
    expect((await t.admin.get(`/webhooks/${hook.id}/deliveries/?limit=0`)).statusCode).toBe(422);
  });
});

describe('several runners on one database', () => {
  it('deliver every event once between them', async () => {
    const hook = await subscribe('test.shared');
    // Each runner has its own pool, as another instance would. Not on SQLite: better-sqlite3 waits for a lock
    // synchronously, so two handles in one process would block the event loop that must release it; there
    // the runners share the app's handle and race through the conditional claims.
    const shared = t.connection.engine.kind === 'sqlite';
    const others = shared ? [] : [connect(t.config.databaseUrl, { poolSize: 4 }), connect(t.config.databaseUrl, { poolSize: 4 })];
    const runners = (shared ? [t.connection, t.connection] : others).map(
      (connection) => new JobRunner({ db: connection.db, engine: connection.engine, clock: systemClock, config: t.config.jobs, log: console }),
    );
    try {
      for (const runner of runners) runner.start();
      const count = 40;
      await recordEvents(
        'test.shared',
        Array.from({ length: count }, (_, i) => ({ i })),
      );
      await eventually(() => receiver.on(hook.path).length >= count, 20_000, 'every event');
      await pause(300);
      const seen = receiver.on(hook.path).map((r) => r.json.i as number);
      expect(seen).toEqual(Array.from({ length: count }, (_, i) => i));
      const rows = await t.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('webhook_id', '=', hook.id).execute();
      expect(rows).toHaveLength(count);
      expect(rows.every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(true);
    } finally {
      for (const runner of runners) await runner.stop();
      for (const connection of others) await connection.close();
    }
    // Stopping gave back every lease.
    expect(
      await t.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where(
          'lease_owner',
          'in',
          runners.map((r) => r.owner),
        )
        .execute(),
    ).toEqual([]);
  });

  it('takes over work whose lease expired (an instance that crashed)', async () => {
    const hook = await subscribe('test.crashed');
    const at = new Date(Date.now() - 60_000);
    await t.db
      .insertInto('outbox')
      .values({
        id: objectId(),
        event: 'test.crashed',
        resource_type: null,
        resource_id: null,
        payload: JSON.stringify({ left: 'behind' }),
        status: 'pending',
        attempts: 0,
        available_at: at,
        lease_owner: 'crashed-instance',
        lease_expires_at: new Date(Date.now() - 1000),
        created_at: at,
      })
      .execute();
    await eventually(() => receiver.on(hook.path).length === 1, 10_000, 'the abandoned event');
    expect(receiver.on(hook.path)[0]!.json).toEqual({ left: 'behind' });
  });
});

describe('history', () => {
  it('prunes finished deliveries and the events only they referred to, once past the retention', async () => {
    const hook = await subscribe('test.prune');
    const old = new Date('2020-01-01T00:00:00.000Z');
    const recent = new Date();
    const event = (at: Date) => ({
      id: objectId(),
      event: 'test.prune',
      resource_type: null,
      resource_id: null,
      payload: '{}',
      status: 'done' as const,
      attempts: 0,
      available_at: at,
      lease_owner: null,
      lease_expires_at: null,
      created_at: at,
    });
    const delivery = (outboxId: string, at: Date, status: 'delivered' | 'pending') => ({
      id: objectId(),
      webhook_id: hook.id,
      outbox_id: outboxId,
      event: 'test.prune',
      event_at: at,
      status,
      attempts: 1,
      // Pending ones are not due for a long time: the runner leaves them alone.
      available_at: new Date('2100-01-01T00:00:00.000Z'),
      lease_owner: null,
      lease_expires_at: null,
      response_status: 200,
      error: null,
      latency_ms: 1,
      response_excerpt: null,
      created_at: at,
      updated_at: at,
      delivered_at: at,
    });
    const [gone, kept, lonely] = [event(old), event(old), event(old)];
    await t.db.insertInto('outbox').values([gone, kept, lonely]).execute();
    const oldDelivery = delivery(gone.id, old, 'delivered');
    const recentDelivery = delivery(kept.id, recent, 'delivered');
    const waiting = delivery(lonely.id, old, 'pending');
    await t.db.insertInto('webhook_deliveries').values([oldDelivery, recentDelivery, waiting]).execute();
    await pruneHistory(t.db, new Date('2021-01-01T00:00:00.000Z'));
    const deliveries = (await t.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute()).map((row) => row.id);
    expect(deliveries.sort()).toEqual([recentDelivery.id, waiting.id].sort());
    const events = (await t.db.selectFrom('outbox').select('id').where('id', 'in', [gone.id, kept.id, lonely.id]).execute()).map((row) => row.id);
    expect(events.sort()).toEqual([kept.id, lonely.id].sort());
  });
});
