import { describe, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';
import { createMetrics, serveMetrics } from '../src/http/metrics.js';
import { buildApp } from '../src/app.js';
import { ADMIN } from './support.js';

const t = useTestSite();

describe('health', () => {
  it('answers liveness and readiness outside the API roots, without credentials', async () => {
    const live = await t.app.inject({ url: '/_quire/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/_quire/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { server: 'ok', database: 'ok' } });
  });

  it('is not ready, naming the part, when the database fails or shutdown began', async () => {
    const readiness = { accepting: false };
    const failing = {
      ...t.connection,
      db: t.db.withPlugin({
        transformQuery: () => {
          throw new Error('database is down');
        },
        transformResult: async (args) => args.result,
      }),
    };
    const app = await buildApp({ config: t.config, connection: failing, readiness });
    const res = await app.inject({ url: '/_quire/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', checks: { server: 'shutting down', database: 'failing: database is down' } });
    await app.close();
  });

  it('serves no metrics on the public port', async () => {
    // `/metrics` is a site path: Ghost's trailing-slash redirect, then the site's 404 page.
    const bare = await t.app.inject({ url: '/metrics' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/metrics/');
    expect((await t.app.inject({ url: '/metrics/' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/_quire/metrics' })).statusCode).toBe(404);
  });

  it('counts requests by route pattern and status on the metrics port when enabled', async () => {
    const metrics = createMetrics(t.connection.db);
    const app = await buildApp({ config: t.config, connection: t.connection, metrics });
    await app.inject({ url: `${ADMIN}/site/` });
    // A write records its events for the job runner, which this app does not run: they wait in the queue.
    expect((await t.admin.post('/tags/', { tags: [{ name: 'Queued' }] })).statusCode).toBe(201);
    await app.inject({ url: `${ADMIN}/posts/0123456789abcdef01234567/` });
    const server = await serveMetrics(metrics, 0, '127.0.0.1');
    try {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain('quire_http_requests_total{method="GET",route="/ghost/api/admin/site/",status="200"} 1');
      expect(text).toContain('quire_http_requests_total{method="GET",route="/ghost/api/admin/posts/:id/",status="403"} 1');
      expect(text).toMatch(/quire_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/ghost\/api\/admin\/site\/",status="200"\}/);
      expect(text).toContain('nodejs_eventloop_lag_seconds');
      expect(text).toContain('quire_worker_queue_length');
      expect(text).toMatch(/quire_jobs_pending\{queue="events"\} [1-9]/);
      expect(text).toContain('quire_jobs_pending{queue="webhook_deliveries"} 0');
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      server.close();
      await app.close();
    }
  });

  it('counts the requests the request queue turns away (503) though Fastify never sees them', async () => {
    const metrics = createMetrics(t.connection.db);
    const app = await buildApp({ config: { ...t.config, requestQueueTimeoutMs: 300 }, connection: t.connection, metrics });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      // The event loop held after the request is read, as a long turn under many readers holds it.
      app.server.once('request', () => {
        const until = performance.now() + 900;
        while (performance.now() < until);
      });
      expect((await fetch(`${base}${ADMIN}/site/`)).status).toBe(503);
      expect((await fetch(`${base}${ADMIN}/site/`)).status).toBe(200);
      const text = await metrics.registry.metrics();
      expect(text).toContain('quire_http_requests_total{method="GET",route="(shed)",status="503"} 1');
      expect(text).toContain('quire_http_requests_total{method="GET",route="/ghost/api/admin/site/",status="200"} 1');
    } finally {
      await app.close();
    }
  });
});
