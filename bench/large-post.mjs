// GET /site/ latency while a 20 MB post is saved: rendering, html → plaintext and bcrypt run on the worker
// pool, so the reads should not wait for the save. Usage: npm run build && node bench/large-post.mjs [MB]
// (BENCH_CPU_PROF=1 writes a CPU profile of the server to ./bench-profiles/).
import autocannon from 'autocannon';
import { keysFor, adminToken, startServer } from './posts-common.mjs';
import { largeLexical } from '../test/fixtures/lexical.mjs';

const megabytes = Number(process.argv[2] ?? 20);
const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=bench-profiles'] : [];
// BENCH_DATABASE_URL runs the server on another database (an empty one: it is migrated and set up); BENCH_MAIN serves
// another build (e.g. another worktree's dist/main.mjs) to compare before and after.
const server = await startServer({
  nodeArgs,
  main: process.env.BENCH_MAIN ?? 'dist/main.mjs',
  env: process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {},
});
const { adminKey } = await keysFor(server.base);

const lexical = largeLexical(megabytes * 1024 * 1024);
const body = JSON.stringify({ posts: [{ title: 'A very long post', lexical }] });

// The renderers warm up 2 s after start; wait so the figure is a warm server's.
await new Promise((resolve) => setTimeout(resolve, 3000));

const started = performance.now();
const save = fetch(`${server.base}/ghost/api/admin/posts/`, {
  method: 'POST',
  headers: { authorization: `Ghost ${adminToken(adminKey)}`, 'content-type': 'application/json' },
  body,
}).then(async (res) => ({ status: res.status, bytes: (await res.arrayBuffer()).byteLength, ms: performance.now() - started }));

const reads = autocannon({ url: `${server.base}/ghost/api/admin/site/`, connections: 4, duration: 120 });
const saved = await save;
reads.stop();
const result = await reads;
console.log(
  `${megabytes} MB post saved in ${saved.ms.toFixed(0)} ms (status ${saved.status}, ${(saved.bytes / 1024 / 1024).toFixed(1)} MB answer); ` +
    `GET /site/ meanwhile (4 connections): ${result.requests.total} requests, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; server RSS ${server.rssMb().toFixed(0)} MB`,
);
await server.stop();
