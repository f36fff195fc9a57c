import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ownerSession, startInstance, useBuildAndFolder } from './instances.js';
import { WebhookReceiver, eventually } from './webhook-receiver.js';
import { openSqliteDriver } from '../src/db/sqlite-driver.js';

// The built server (dist/main.mjs) runs the job runner itself, and on SIGTERM finishes the delivery in
// flight and gives back its leases before it exits.
const folder = useBuildAndFolder('quire-webhooks-e2e-');
const receiver = new WebhookReceiver();

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

it('delivers from the server process and releases its leases on SIGTERM', async () => {
  const file = path.join(folder.path, 'hooks.db');
  const server = await startInstance(
    {
      DATABASE_URL: `sqlite:${file}`,
      STAFF_DEVICE_VERIFICATION: 'false',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '3000',
      JOBS_POLL_MS: '50',
    },
    { contentDir: folder.path },
  );
  const admin = `${server.base}/ghost/api/admin`;
  try {
    const session = await ownerSession(server.base);
    const integration = (await (
      await fetch(`${admin}/integrations/`, { method: 'POST', headers: session, body: JSON.stringify({ integrations: [{ name: 'Hooks' }] }) })
    ).json()) as {
      integrations: { id: string }[];
    };
    const subscribe = async (path: string) => {
      const body = { webhooks: [{ event: 'site.changed', target_url: `${receiver.url}${path}`, integration_id: integration.integrations[0]!.id }] };
      expect((await fetch(`${admin}/webhooks/`, { method: 'POST', headers: session, body: JSON.stringify(body) })).status).toBe(201);
    };
    await subscribe('/e2e-ok');
    const edit = (value: string) =>
      fetch(`${admin}/settings/`, { method: 'PUT', headers: session, body: JSON.stringify({ settings: [{ key: 'description', value }] }) });
    expect((await edit('one')).status).toBe(200);
    await eventually(() => receiver.on('/e2e-ok').length === 1, 10_000, 'the delivery');

    // A delivery in flight when SIGTERM comes (the receiver never answers): shutdown waits for its timeout,
    // records the attempt, and gives the lease back.
    await subscribe('/e2e-slow');
    receiver.script('/e2e-slow', ['hang']);
    expect((await edit('two')).status).toBe(200);
    await eventually(() => receiver.hanging > 0, 10_000, 'the slow delivery');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
  // Through the service's own SQLite driver, which is the one this Node uses (node:sqlite from 22.16).
  const db = await openSqliteDriver(file);
  try {
    const [leased] = db.prepare('select count(*) as n from webhook_deliveries where lease_owner is not null').all() as { n: number }[];
    const [outbox] = db.prepare('select count(*) as n from outbox where lease_owner is not null').all() as { n: number }[];
    expect([Number(leased!.n), Number(outbox!.n)]).toEqual([0, 0]);
    // The slow delivery timed out during shutdown and waits for its retry, for whichever instance runs next.
    const slow = db
      .prepare("select d.status, d.attempts from webhook_deliveries d join webhooks w on w.id = d.webhook_id where w.target_url like '%/e2e-slow'")
      .all()
      .map((row) => ({ status: row.status, attempts: Number(row.attempts) }));
    expect(slow).toEqual([{ status: 'pending', attempts: 1 }]);
  } finally {
    db.close();
  }
}, 90_000);
