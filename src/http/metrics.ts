import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { workerPoolStats } from '../workers/pool.js';
import type { ReadDb } from '../db/read-db.js';

/**
 * Prometheus metrics (prom-client), only when `METRICS_PORT` is set, and then on that port alone: never on
 * the public one. Requests by route pattern (never the raw URL: ids would make a series per post), method
 * and status; their latency; Node's own metrics (event-loop lag, heap, GC); the worker pool's use.
 */
export interface Metrics {
  registry: Registry;
  /** Counts and times every request of `app`. */
  instrument(app: FastifyInstance): void;
  /** Counts a request the request queue answered 503 itself: route `(shed)`, as Fastify never saw it. */
  shed(method: string): void;
}

export function createMetrics(db: ReadDb): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'quire_http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'quire_http_request_duration_seconds',
    help: 'Time from request to the end of the answer',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const pool = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  pool('quire_worker_threads', 'Worker threads running', () => workerPoolStats().threads);
  pool('quire_worker_queue_length', 'Tasks waiting for a worker thread', () => workerPoolStats().queued);
  pool('quire_worker_utilization_ratio', 'Share of the worker pool capacity used since start', () => workerPoolStats().utilization);
  // Read from the database at each scrape: the queue is shared by every instance, so each reports all of it.
  new Gauge({
    name: 'quire_jobs_pending',
    help: 'Background work waiting in the database: events not yet fanned out, webhook deliveries not yet made',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const [events, deliveries] = await Promise.all([pendingCount(db, 'outbox'), pendingCount(db, 'webhook_deliveries')]);
      this.set({ queue: 'events' }, events);
      this.set({ queue: 'webhook_deliveries' }, deliveries);
    },
  });

  return {
    registry,
    instrument(app) {
      app.addHook('onResponse', async (request, reply) => {
        const labels = { method: request.method, route: request.routeOptions.url ?? '(no route)', status: String(reply.statusCode) };
        requests.inc(labels);
        duration.observe(labels, reply.elapsedTime / 1000);
      });
    },
    shed(method) {
      requests.inc({ method, route: '(shed)', status: '503' });
    },
  };
}

/** The metrics server: `GET /metrics` on its own port; everything else 404. */
export async function serveMetrics(metrics: Metrics, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
      (err: unknown) => response.writeHead(500).end(String(err)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

async function pendingCount(db: ReadDb, table: 'outbox' | 'webhook_deliveries'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
