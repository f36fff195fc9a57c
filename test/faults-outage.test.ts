import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { connect } from '../src/db/connect.js';
import { useTestSite } from './test-site.js';
import { ADMIN, ghostError } from './support.js';
import { startDbProxy } from './db-proxy.js';

/*
 * The database server going away and coming back (stopped, restarted, frozen), seen through a relay in front
 * of the test server so that the shared server is never touched. SQLite has no server to lose.
 */
const t = useTestSite();
const pooled = !!process.env.TEST_DATABASE_URL && !process.env.TEST_DATABASE_URL.startsWith('sqlite');

async function appThrough(url: string) {
  const connection = connect(url, { poolSize: 4, acquireTimeoutMs: 1000, statementTimeoutMs: 1000, onConnectionLost: () => undefined });
  const app = await buildApp({ config: t.config, connection });
  const write = (title: string) => app.inject({ method: 'POST', url: `${ADMIN}/posts/`, headers: t.owner, payload: { posts: [{ title }] } });
  const ready = () => app.inject({ url: '/_quire/ready' });
  return {
    app,
    write,
    ready,
    async close() {
      await app.close();
      await connection.close();
    },
  };
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe.skipIf(!pooled)('the database server unreachable', () => {
  it('turns readiness 503, fails requests at once with a 503, and recovers by itself when the server is back', { timeout: 60_000 }, async () => {
    const proxy = await startDbProxy(t.config.databaseUrl);
    const site = await appThrough(proxy.url);
    try {
      expect((await site.write('Before')).statusCode).toBe(201);
      expect((await site.ready()).statusCode).toBe(200);
      for (let cycle = 0; cycle < 3; cycle++) {
        await proxy.down();
        // The first request finds the server gone: an opaque failure.
        const lost = await site.write(`During ${cycle}`);
        expect(lost.statusCode).toBeGreaterThanOrEqual(500);
        expect(lost.body).not.toMatch(/ECONN|127\.0\.0\.1|refused/);
        const ready = await site.ready();
        expect(ready.statusCode).toBe(503);
        expect(ready.json().checks.database).toMatch(/^failing/);
        // Meanwhile every request fails fast with Ghost's 503 rather than waiting out a timeout.
        const started = Date.now();
        const shed = await site.write(`Shed ${cycle}`);
        expect(Date.now() - started).toBeLessThan(500);
        expect(shed.statusCode).toBe(503);
        expect(ghostError(shed)).toMatchObject({ type: 'MaintenanceError', code: 'DATABASE_UNAVAILABLE' });
        await proxy.up();
        expect(await until(async () => (await site.ready()).statusCode === 200, 5000)).toBe(true);
        expect((await site.write(`After ${cycle}`)).statusCode).toBe(201);
      }
    } finally {
      await site.close();
      await proxy.close();
    }
  });

  it('gives up on a frozen server within the statement timeout and serves again once it answers', { timeout: 60_000 }, async () => {
    const proxy = await startDbProxy(t.config.databaseUrl);
    const site = await appThrough(proxy.url);
    try {
      expect((await site.write('Warm')).statusCode).toBe(201);
      proxy.freeze();
      const started = Date.now();
      const stuck = await site.write('Frozen');
      // Statement timeout 1 s (plus its margin for a server that cannot end it), then the failure.
      expect(stuck.statusCode).toBeGreaterThanOrEqual(500);
      expect(Date.now() - started).toBeLessThan(8000);
      await proxy.up();
      expect(await until(async () => (await site.write('Thawed')).statusCode === 201, 15_000)).toBe(true);
    } finally {
      await site.close();
      await proxy.close();
    }
  });

  it('has the server end a statement that runs past DB_STATEMENT_TIMEOUT_MS', async () => {
    const connection = connect(t.config.databaseUrl, { poolSize: 1, statementTimeoutMs: 500 });
    try {
      const sleep = t.connection.engine.kind === 'postgres' ? sql`select pg_sleep(3)` : sql`select sleep(3) as slept`;
      const started = Date.now();
      const err = await sleep.execute(connection.db).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err?.message).toMatch(/statement timeout|max_statement_time/);
      expect(Date.now() - started).toBeLessThan(2500);
      // The connection serves on.
      expect((await sql<{ one: number }>`select 1 as one`.execute(connection.db)).rows[0]?.one).toBe(1);
    } finally {
      await connection.close();
    }
  });
});
