import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { parseConfig } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { loggerOptions, type LogFormat } from '../src/http/logging.js';
import { ADMIN, CONTENT, ORIGIN, OWNER, SITE_URL, adminAuth, bootstrap, createTestDatabase, ghostError, logSink } from './support.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An app logging at info in `format` into `lines`, on a fresh database. */
async function loggingApp(format: LogFormat): Promise<{ app: FastifyInstance; log: () => string }> {
  const database = await createTestDatabase();
  const contentDir = mkdtempSync(path.join(tmpdir(), 'quire-log-'));
  const config = parseConfig({ SITE_URL, DATABASE_URL: database.url, CONTENT_DIR: contentDir, STAFF_DEVICE_VERIFICATION: 'false' });
  const connection = connect(config.databaseUrl, { poolSize: 2 });
  await migrateToLatest(connection);
  const logs = logSink();
  const app = await buildApp({ config, connection, logger: loggerOptions({ level: 'info', format }, logs.stream) });
  cleanups.push(async () => {
    await app.close();
    await connection.close();
    await database.drop();
    rmSync(contentDir, { recursive: true, force: true });
  });
  return { app, log: logs.text };
}

describe('logs', () => {
  it('JSON mode: one JSON line per event with an ISO time; an error answer logs its type, message, error id and request id', async () => {
    const { app, log } = await loggingApp('json');
    const res = await app.inject({ url: `${ADMIN}/posts/0123456789abcdef01234567/`, headers: { 'x-request-id': 'req-from-proxy-42' } });
    expect(res.statusCode).toBe(403);
    expect(res.headers['x-request-id']).toBe('req-from-proxy-42');
    const error = ghostError(res);
    const lines = log()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of lines) expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const line = lines.find((l) => l.request_id === 'req-from-proxy-42');
    expect(line).toMatchObject({
      level: 30,
      method: 'GET',
      path: `${ADMIN}/posts/0123456789abcdef01234567/`,
      status: 403,
      error: { type: error.type, message: error.message, id: error.id },
      msg: 'request refused',
    });
  });

  it('makes a request id when none (or an overlong one) is given, and returns it', async () => {
    const { app } = await loggingApp('json');
    const made = await app.inject({ url: `${ADMIN}/site/` });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await app.inject({ url: `${ADMIN}/site/`, headers: { 'x-request-id': 'x'.repeat(201) } });
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('readable mode: a line a person can read, with the same facts', async () => {
    const { app, log } = await loggingApp('pretty');
    const res = await app.inject({ url: `${ADMIN}/no-such-thing/`, headers: { 'x-request-id': 'readable-1' } });
    const id = ghostError(res).id as string;
    const text = log();
    expect(() => JSON.parse(text.split('\n')[0]!)).toThrow();
    expect(text).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO: request refused/m);
    expect(text).toContain('request_id: "readable-1"');
    expect(text).toContain(id);
    expect(text).toContain('NotFoundError');
  });

  it('a whole session logs no password, cookie, key or token', async () => {
    const { app, log } = await loggingApp('json');
    const { cookie, adminKey, contentKey } = await bootstrap(app);
    const token = adminAuth(adminKey).authorization;
    await app.inject({ url: `${ADMIN}/posts/`, headers: { authorization: token } });
    await app.inject({ url: `${CONTENT}/posts/?key=${contentKey}` });
    await app.inject({ url: `${CONTENT}/posts/?key=0000${contentKey.slice(4)}` });
    await app.inject({
      method: 'POST',
      url: `${ADMIN}/session/`,
      headers: { origin: ORIGIN },
      payload: { username: OWNER.email, password: 'Wrong-password-123' },
    });
    await app.inject({ url: `${ADMIN}/users/me/`, headers: { cookie, origin: ORIGIN } });
    await app.inject({ url: `${ADMIN}/users/me/token/`, headers: { cookie, origin: ORIGIN } });
    const text = log();
    expect(text.split('\n').length).toBeGreaterThan(8);
    const secrets = [OWNER.password, 'Wrong-password-123', cookie.split('=')[1]!, adminKey.split(':')[1]!, token.split(' ')[1]!, contentKey];
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/\$2[aby]\$10\$/);
  });
});
