import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { parseConfig } from '../src/config.js';
import { connect, type Connection } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { loggerOptions } from '../src/http/logging.js';
import { ADMIN, SITE_URL, adminAuth, bootstrap, createTestDatabase, logSink, type TestDatabase } from './support.js';
import { multipartBody } from './uploads.js';
import { WebhookReceiver, eventually } from './webhook-receiver.js';

/**
 * Background work writes log lines as requests do: the app's own logger (JSON here), captured whole. One line
 * per webhook delivery attempt, per scheduled publish, and per start, progress and end of a background job.
 */
type Line = Record<string, unknown>;

const receiver = new WebhookReceiver();
const logs = logSink();
let database: TestDatabase;
let contentDir: string;
let connection: Connection;
let app: FastifyInstance;
let keys: { adminKey: string; integrationId: string };

const lines = (): Line[] =>
  logs
    .text()
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
const linesOf = (job: string, id?: string) => lines().filter((line) => line.job === job && (id === undefined || line.job_id === id));
const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  app.inject({ method, url: `${ADMIN}${url}`, headers: adminAuth(keys.adminKey), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  await receiver.start();
  database = await createTestDatabase();
  contentDir = mkdtempSync(path.join(tmpdir(), 'quire-job-logs-'));
  const config = parseConfig({
    SITE_URL,
    DATABASE_URL: database.url,
    CONTENT_DIR: contentDir,
    STAFF_DEVICE_VERIFICATION: 'false',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_BASE_MS: '50',
    JOBS_POLL_MS: '50',
    MEMBERS_IMPORT_INLINE_ROWS: '2',
  });
  connection = connect(config.databaseUrl, { poolSize: 4 });
  await migrateToLatest(connection);
  app = await buildApp({ config, connection, runJobs: true, logger: loggerOptions({ level: 'info', format: 'json' }, logs.stream) });
  await app.ready();
  keys = await bootstrap(app);
});

afterAll(async () => {
  await app.close();
  await connection.close();
  await database.drop();
  await receiver.stop();
  rmSync(contentDir, { recursive: true, force: true });
});

describe('background work in the logs', () => {
  it('one line per webhook delivery attempt: event, target origin (never its path), status, ms, attempt and the next retry', async () => {
    receiver.script('/secret-path-token', [500, 200]);
    const hook = await admin('POST', '/webhooks/', { webhooks: [{ event: 'tag.added', target_url: `${receiver.url}/secret-path-token` }] });
    expect(hook.statusCode).toBe(201);
    const webhookId = hook.json().webhooks[0].id as string;
    expect((await admin('POST', '/tags/', { tags: [{ name: 'Logged' }] })).statusCode).toBe(201);
    await eventually(() => lines().some((line) => line.webhook_id === webhookId && line.outcome === 'delivered'), 10_000, 'the delivery');
    const attempts = lines().filter((line) => line.webhook_id === webhookId);
    expect(attempts).toHaveLength(2);
    const [failed, delivered] = attempts as [Line, Line];
    expect(failed).toMatchObject({
      level: 40,
      msg: 'webhook delivery failed; it is tried again',
      job: 'webhook',
      event: 'tag.added',
      method: 'POST',
      target: receiver.url,
      status: 500,
      attempt: 1,
      outcome: 'pending',
      error: 'Request failed: ERR_NON_2XX_3XX_RESPONSE',
    });
    expect(typeof failed.ms).toBe('number');
    expect(Date.parse(failed.next_retry_at as string)).toBeGreaterThan(Date.parse(failed.time as string) - 1000);
    expect(delivered).toMatchObject({ level: 30, msg: 'webhook delivered', job_id: failed.job_id, status: 200, attempt: 2, outcome: 'delivered' });
    expect(delivered).not.toHaveProperty('next_retry_at');
    expect(logs.text()).not.toContain('secret-path-token');
  });

  it('one line per scheduled post published, with its time and lateness', async () => {
    const at = new Date(Date.now() + 10 * 60_000).toISOString();
    const res = await admin('POST', '/posts/', { posts: [{ title: 'Due soon', status: 'scheduled', published_at: at }] });
    expect(res.statusCode).toBe(201);
    const id = res.json().posts[0].id as string;
    // Due a second ago: the runner's next look publishes it.
    const due = new Date(Date.now() - 1000);
    await connection.db.updateTable('posts').set({ published_at: due }).where('id', '=', id).execute();
    await eventually(() => linesOf('publish', id).length > 0, 10_000, 'the publish line');
    const [line, ...more] = linesOf('publish', id);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 30, msg: 'scheduled post published', type: 'post', scheduled_for: due.toISOString() });
    expect(line!.late_ms).toBeGreaterThanOrEqual(900);
    expect(typeof line!.ms).toBe('number');
  });

  it('a members CSV job logs its start, its progress and its end with the figures, never the addresses', async () => {
    const csv = ['email,name', 'one@example.com,One', 'two@example.com,Two', 'three@example.com,Three', 'not-an-email,Bad'].join('\n');
    const body = await multipartBody({ membersfile: { name: 'members.csv', type: 'text/csv', data: csv } });
    const res = await app.inject({
      method: 'POST',
      url: `${ADMIN}/members/upload/`,
      headers: { ...adminAuth(keys.adminKey), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(202);
    const jobId = new URL(res.headers.location as string).pathname.split('/').filter(Boolean).pop()!;
    await eventually(() => linesOf('members-import', jobId).some((line) => line.msg === 'background job done'), 20_000, 'the job');
    const logged = linesOf('members-import', jobId);
    expect(logged.map((line) => line.msg)).toEqual(['background job started', 'background job progress', 'background job progress', 'background job done']);
    expect(logged[0]).toMatchObject({ level: 30, attempt: 1 });
    expect(logged[1]).toMatchObject({ stage: 'checking', rows: 4, checked: 0 });
    expect(logged[2]).toMatchObject({ stage: 'writing', rows: 4, checked: 4 });
    expect(logged[3]).toMatchObject({ 'stats.imported': 3, 'stats.invalid': 1 });
    for (const line of logged) expect(typeof line.ms).toBe('number');
    expect(logged.map((line) => JSON.stringify(line)).join('')).not.toMatch(/example\.com/);
  });
});
