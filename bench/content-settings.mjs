// The first calls of a Ghost front end and of Ghost's admin app: Content API settings and /site/ (design.md
// §6: Ghost 5.130.6 measured 747 req/s for settings at 16 connections). Settings are served from each
// instance's cache, checked against the database at most once a second.
// Usage: npm run build && node bench/content-settings.mjs [seconds]
import autocannon from 'autocannon';
import { keysFor, startServer } from './posts-common.mjs';

const seconds = Number(process.argv[2] ?? 10);
const server = await startServer();
const { contentKey } = await keysFor(server.base);

// The content renderer warms up two seconds after start; measure after it, as a long-running server is.
await new Promise((resolve) => setTimeout(resolve, 4000));

async function run(title, url) {
  const result = await autocannon({ url, connections: 16, duration: seconds });
  const failures = result.non2xx + result.errors;
  console.log(
    `${title}: ${result.requests.average.toFixed(0)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${failures} failures, server RSS ${server.rssMb().toFixed(0)} MB`,
  );
}

await run('content settings', `${server.base}/ghost/api/content/settings/?key=${contentKey}`);
await run('admin site', `${server.base}/ghost/api/admin/site/`);
await server.stop();
