// Warm response cache vs a bare Node `http` server sending the same bytes (design.md §6: a cached read reaches
// at least half the bare server's rate, RSS ≤ 100 MB). 200 published ~1,000-word posts with 3 tags each; the
// Content API's posts browse with include=tags,authors and a post by slug. Every server runs pinned to CPU 0
// (`taskset -c 0`), one at a time; autocannon (16 connections) runs in this process, pinned to CPU 1.
// Rows: Quire with its cache in the database mode (default), Quire in Redis mode (REDIS_URL, when Redis
// answers at 127.0.0.1:6379), Quire with RESPONSE_CACHE_MB=0 (every answer computed), and the bare server.
// Usage: npm run build && node bench/response-cache.mjs [seconds per run]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { adminToken, keysFor, lexicalPost } from './posts-common.mjs';

const seconds = Number(process.argv[2] ?? 10);
const PORT = 25000 + Math.floor(Math.random() * 900);
const BARE_PORT = PORT + 1;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-cache-'));
const base = `http://127.0.0.1:${PORT}`;

execFileSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });

/** A process pinned to CPU 0; resolves once `url` answers. */
async function startPinned(args, env, url) {
  const child = spawn('taskset', ['-c', '0', process.execPath, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  process.once('exit', () => child.kill('SIGKILL'));
  for (;;) {
    try {
      if ((await fetch(url)).status < 500) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return {
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024,
    /** CPU time the process used so far (user + system, every thread), in ms: the machine is shared, so CPU per request is the steadier figure. */
    cpuMs: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

// The server warms its renderers on its worker threads 2 s after it listens (~1 s of CPU): let that pass first.
const RENDERER_WARM_WAIT_MS = 6000;
const quire = async (extra = {}) => {
  const running = await startPinned(
    ['dist/main.mjs'],
    { PORT: String(PORT), SITE_URL: `${base}/`, CONTENT_DIR: dir, LOG_LEVEL: 'warn', STAFF_DEVICE_VERIFICATION: 'false', JOBS_ENABLED: 'false', ...extra },
    `${base}/ghost/api/admin/site/`,
  );
  await new Promise((resolve) => setTimeout(resolve, RENDERER_WARM_WAIT_MS));
  return running;
};

async function load(url, running, duration = seconds) {
  const cpuBefore = running.cpuMs();
  const result = await autocannon({ url, connections: 16, duration });
  const cpuUs = ((running.cpuMs() - cpuBefore) * 1000) / result.requests.total;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures: result.non2xx + result.errors, cpuUs };
}

const redisAnswers = () =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(REDIS_URL);
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

// Seed through the API (the server runs its jobs off: nothing else competes for CPU 0 afterwards).
let server = await quire();
const { adminKey, contentKey } = await keysFor(base);
for (let i = 0; i < 200; i++) {
  const post = { title: `Bench post ${i}`, lexical: lexicalPost(1000, i), status: 'published', tags: [`Topic ${i % 10}`, `Series ${i % 7}`, `Tag ${i % 13}`] };
  const res = await fetch(`${base}/ghost/api/admin/posts/`, {
    method: 'POST',
    headers: { authorization: `Ghost ${adminToken(adminKey)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ posts: [post] }),
  });
  if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
}

const reads = [
  ['posts browse include=tags,authors', `/ghost/api/content/posts/?include=tags,authors&key=${contentKey}`],
  ['post by slug', `/ghost/api/content/posts/slug/bench-post-100/?key=${contentKey}`],
];

// The exact answers (body and the headers a client gets), for the bare server to send.
const answers = [];
for (const [, url] of reads) {
  const res = await fetch(`${base}${url}`);
  const headers = {};
  for (const name of ['content-type', 'cache-control', 'vary', 'content-version', 'etag', 'access-control-allow-origin']) {
    if (res.headers.has(name)) headers[name] = res.headers.get(name);
  }
  answers.push({ headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') });
}
const answersFile = path.join(dir, 'answers.json');
writeFileSync(answersFile, JSON.stringify(answers));
const bareServer = `
const http = require('node:http');
const answers = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(answersFile)}, 'utf8')).map((a) => ({ ...a, body: Buffer.from(a.body, 'base64') }));
http.createServer((req, res) => {
  const answer = answers[req.url === '/1' ? 1 : 0];
  res.writeHead(200, { ...answer.headers, 'content-length': answer.body.length });
  res.end(answer.body);
}).listen(${BARE_PORT}, '127.0.0.1');
`;

const rows = [];
async function measure(label, start, urlOf) {
  const running = await start();
  for (const [i, [name, url]] of reads.entries()) {
    const target = urlOf(i, url);
    await load(target, running, 3); // not kept: warms the cache and the JIT
    const result = await load(target, running);
    rows.push({ label, name, ...result, rss: running.rssMb(), load: loadavg()[0] });
  }
  await running.stop();
}

await server.stop();
const modes = [['Quire, cache (database mode)', () => quire()]];
if (await redisAnswers()) modes.push(['Quire, cache (Redis mode)', () => quire({ REDIS_URL })]);
modes.push(['Quire, RESPONSE_CACHE_MB=0', () => quire({ RESPONSE_CACHE_MB: '0' })]);
for (const [label, start] of modes) await measure(label, start, (_, url) => `${base}${url}`);
await measure(
  'bare node http, same bytes',
  () => startPinned(['-e', bareServer], {}, `http://127.0.0.1:${BARE_PORT}/`),
  (i) => `http://127.0.0.1:${BARE_PORT}/${i}`,
);

const bareRows = rows.filter((row) => row.label.startsWith('bare'));
const bare = Object.fromEntries(bareRows.map((row) => [row.name, row.rps]));
const bareCpu = Object.fromEntries(bareRows.map((row) => [row.name, row.cpuUs]));
console.log(`${seconds} s per run, 16 connections; answers of ${answers.map((a) => Buffer.from(a.body, 'base64').length).join(' and ')} bytes`);
for (const row of rows) {
  console.log(
    `${row.label} | ${row.name}: ${row.rps.toFixed(0)} req/s (${((row.rps / bare[row.name]) * 100).toFixed(0)} % of bare), p50 ${row.p50} ms, p99 ${row.p99} ms, ` +
      `CPU ${row.cpuUs.toFixed(0)} µs/request (bare's is ${((bareCpu[row.name] / row.cpuUs) * 100).toFixed(0)} % of it), RSS ${row.rss.toFixed(0)} MB, ${row.failures} failures, load ${row.load.toFixed(2)}`,
  );
}
