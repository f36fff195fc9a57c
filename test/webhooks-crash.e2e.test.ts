import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../src/db/connect.js';
import { createTestDatabase, type TestDatabase } from './support.js';
import { ownerSession, startInstance, useBuildAndFolder } from './instances.js';
import { WebhookReceiver, eventually } from './webhook-receiver.js';

// SIGKILL in the middle of delivering 100 events to a slow receiver, then a fresh start on the same database:
// every event arrives at least once and is recorded as delivered exactly once. The delivery in flight at the
// kill (sent, its answer not yet recorded) is sent again once its lease runs out: at-least-once, as promised.
const EVENTS = 100;
const folder = useBuildAndFolder('quire-crash-e2e-');
let database: TestDatabase;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  database = await createTestDatabase();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await database?.drop();
});

/** The built server on the test database and the shared content folder. */
const startServer = () =>
  startInstance(
    {
      DATABASE_URL: database.url,
      STAFF_DEVICE_VERIFICATION: 'false',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '1000',
      // The dead instance's lease runs out soon after the restart.
      JOBS_LEASE_MS: '3000',
      JOBS_POLL_MS: '50',
    },
    { contentDir: folder.path },
  );

it('delivers every event at least once and records each delivered once across a SIGKILL', async () => {
  let server = await startServer();
  try {
    const admin = `${server.base}/ghost/api/admin`;
    const session = await ownerSession(server.base);
    const made = await fetch(`${admin}/integrations/`, { method: 'POST', headers: session, body: JSON.stringify({ integrations: [{ name: 'Crash' }] }) });
    const integrationId = ((await made.json()) as { integrations: { id: string }[] }).integrations[0]!.id;
    const hook = { webhooks: [{ event: 'post.added', target_url: `${receiver.url}/crash`, integration_id: integrationId }] };
    expect((await fetch(`${admin}/webhooks/`, { method: 'POST', headers: session, body: JSON.stringify(hook) })).status).toBe(201);
    // A slow receiver: 100 deliveries take seconds, so the kill lands in the middle of them.
    receiver.script('/crash', [{ status: 200, delayMs: 100 }]);
    const ids: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const res = await fetch(`${admin}/posts/`, { method: 'POST', headers: session, body: JSON.stringify({ posts: [{ title: `Crash ${i}` }] }) });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { posts: { id: string }[] }).posts[0]!.id);
    }
    await eventually(() => receiver.on('/crash').length >= 40, 60_000, 'forty deliveries');
    // Most of a delivery's time is the receiver's delay: the kill almost always finds one in flight.
    server.child.kill('SIGKILL');
    await server.exited;
    const beforeRestart = receiver.on('/crash').length;
    expect(beforeRestart).toBeLessThan(EVENTS);

    server = await startServer();
    const arrivedIds = () => new Set(receiver.on('/crash').map((r) => (r.json as { post: { current: { id: string } } }).post.current.id));
    await eventually(() => arrivedIds().size === EVENTS, 90_000, 'every event');
    const check = connect(database.url, { poolSize: 1 });
    try {
      const delivered = async () => check.db.selectFrom('webhook_deliveries').select(['outbox_id', 'status']).execute();
      await eventually(async () => (await delivered()).every((row) => row.status === 'delivered'), 30_000, 'the last delivery recorded');
      const rows = await delivered();
      expect(rows).toHaveLength(EVENTS);
      expect(new Set(rows.map((row) => row.outbox_id)).size).toBe(EVENTS);
    } finally {
      await check.close();
    }
    expect(arrivedIds()).toEqual(new Set(ids));
    const twice = receiver.on('/crash').length - EVENTS;
    console.log(`crash test: ${EVENTS} events, ${beforeRestart} arrived before the SIGKILL, ${twice} arrived twice`);
    expect(twice).toBeGreaterThanOrEqual(0);
    server.child.kill('SIGTERM');
    await server.exited;
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
}, 240_000);
