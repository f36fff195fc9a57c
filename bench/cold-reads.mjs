// Cold Content API reads (no response cache), two builds side by side on the same seeded data: 200 published
// ~1,000-word posts with 3 tags each, 16 connections, each server pinned to one core (`taskset -c 0`), the builds
// alternated round by round so the machine's load falls on both alike.
// Usage: npm run build && node bench/cold-reads.mjs --before /old/checkout/dist/main.mjs [--seconds 10] [--rounds 2]
//        [--prof DIR] (CPU profiles of the current build's server, one per round, into DIR) [--only pages,settings]
//        [--port 42300] (servers listen on the first free port from there)
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cpuSecondsOf, keysFor, startServer } from './posts-common.mjs';
import { adminApi, seedThroughApi } from './site-content.mjs';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    prof: { type: 'string' },
    only: { type: 'string' },
    port: { type: 'string', default: '24000' },
  },
});
const root = path.dirname(new URL(import.meta.url).pathname);
const builds = [...(values.before ? [['before', values.before]] : []), ['after', path.join(root, '../dist/main.mjs')]];

// Seeded once by the current build (the site `npm run bench` seeds); each server then runs on its own copy of the file.
/**
 * A port of `--port`'s range of 100 that nothing listens on or connects from now (a random one of the range can be
 * an outgoing connection's local port, and the server would then fail to listen).
 */
async function freePort() {
  for (let port = Number(values.port); port < Number(values.port) + 100; port++) {
    const free = await new Promise((resolve) => {
      const probe = createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return String(port);
  }
  throw new Error(`no free port from ${values.port}`);
}

const seeder = await startServer({ env: { PORT: await freePort() } });
const { adminKey, contentKey } = await keysFor(seeder.base);
await seedThroughApi(adminApi(seeder.base, adminKey), 200);
await seeder.stop();

// The Content API reads of `npm run bench`; `--only pages,settings` (names' first words) keeps some of them.
const ALL_REQUESTS = [
  ['posts include=tags,authors', 'posts/?include=tags,authors'],
  ['post by slug', 'posts/slug/bench-post-100/'],
  ['filtered browse', 'posts/?filter=tag:topic-3&include=tags,authors'],
  ['tags include=count.posts limit=all', 'tags/?include=count.posts&limit=all'],
  ['settings', 'settings/'],
  ['authors', 'authors/'],
  ['pages', 'pages/'],
];
const only = values.only?.split(',');
const REQUESTS = only ? ALL_REQUESTS.filter(([title]) => only.includes(title.split(' ')[0])) : ALL_REQUESTS;

/** A server of build `main` on a copy of the seeded database, pinned to core 0, with no response cache. */
async function serve(main, nodeArgs) {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-cold-'));
  mkdirSync(path.join(dir, 'data'));
  copyFileSync(seeder.sqliteFile, path.join(dir, 'data', 'quire.db'));
  return startServer({ main, nodeArgs, dir, cpu: 0, env: { PORT: await freePort(), JOBS_ENABLED: 'false', RESPONSE_CACHE_MB: '0' } });
}

/** CPU time the server process has used (ms): per request, it is far steadier on a busy machine than req/s. */
const cpuMs = (pid) => cpuSecondsOf(pid) * 1000;

const results = new Map();
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name, main] of round % 2 ? [...builds].reverse() : builds) {
    const prof = values.prof && name === 'after' ? [`--cpu-prof`, `--cpu-prof-dir=${values.prof}`] : [];
    const server = await serve(main, prof);
    for (const [title, url] of REQUESTS) {
      const target = `${server.base}/ghost/api/content/${url}${url.includes('?') ? '&' : '?'}key=${contentKey}`;
      await autocannon({ url: target, connections: 4, amount: 200 }); // warm-up
      const cpuBefore = cpuMs(server.pid);
      const result = await autocannon({ url: target, connections: 16, duration: Number(values.seconds) });
      const cpuPerRequest = (cpuMs(server.pid) - cpuBefore) / result.requests.total;
      if (result.non2xx + result.errors) throw new Error(`${name} ${title}: ${result.non2xx + result.errors} failures`);
      const key = `${title}\t${name}`;
      results.set(key, [...(results.get(key) ?? []), { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpu: cpuPerRequest }]);
    }
    await server.stop();
  }
}

const mean = (list, key) => list.reduce((sum, r) => sum + r[key], 0) / list.length;
console.log(
  `load average at the end: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}; ${values.rounds} rounds of ${values.seconds} s per request and build`,
);
for (const [title] of REQUESTS) {
  const line = builds.map(([name]) => {
    const list = results.get(`${title}\t${name}`);
    return { name, rps: mean(list, 'rps'), p50: mean(list, 'p50'), p99: mean(list, 'p99'), cpu: mean(list, 'cpu') };
  });
  const text = line
    .map((r) => `${r.name} ${r.rps.toFixed(0)} req/s p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms, ${r.cpu.toFixed(2)} CPU ms/request`)
    .join(' | ');
  const ratio = line.length === 2 ? ` | after/before ${(line[1].rps / line[0].rps).toFixed(2)}× req/s, p99 ${(line[1].p99 / line[0].p99).toFixed(2)}×` : '';
  console.log(`${title}: ${text}${ratio}`);
}
