// The public site with Source, side by side with Ghost 5.130.6 (design.md §6: with the page cache ≥ 50× Ghost's
// req/s and p99 ≤ 1/10; without it ≥ 10×). The same site on both: 20 tags, 60 published ~1,000-word posts
// with 3 tags each, 5 pages (bench/site-content.mjs). Pages: home, a post, a tag page, page 2 and /rss/.
// Each server is pinned to CPU 0 (`taskset -c 0`) and driven alone; autocannon (16 connections) runs here.
// Quire runs twice: RESPONSE_CACHE_MB=64 (cache on) and RESPONSE_CACHE_MB=0 (every page rendered).
// Usage: npm run build && node bench/site-pages.mjs [seconds per page] [posts]
// Before/after in one run: BENCH_BUILDS="before=dist-before/main.mjs,after=dist/main.mjs" measures each build
// with the cache on, then each with it off (alternating, so a change in the machine's load falls on both).
import { execFileSync } from 'node:child_process';
import { drive } from './load.mjs';
import { adminApi, clearSite, seedThroughApi, startSourceSite } from './site-content.mjs';
import { ghostInstalled, startGhost } from './ghost-peer.mjs';
import { fmt, table } from './compare-report.mjs';

const seconds = Number(process.argv[2] ?? 5);
const posts = Number(process.argv[3] ?? 60);
const PAGES = ['/', '/bench-post-1/', '/tag/topic-1/', '/page/2/', '/rss/'];
const QUIRE_PORT = Number(process.env.BENCH_QUIRE_PORT ?? 3400 + Math.floor(Math.random() * 90));
const GHOST_PORT = Number(process.env.BENCH_GHOST_PORT ?? 2401);

try {
  execFileSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
} catch {
  // No taskset: the figures are then not one core each.
}

/** One page driven on one server; the server must answer it 200 first. */
async function measurePage(name, base, pid, page) {
  const res = await fetch(`${base}${page}`);
  if (res.status !== 200) throw new Error(`${name} ${page}: ${res.status}`);
  const run = await drive(`${base}${page}`, { pid, seconds, connections: 16, warmupSeconds: 1 });
  console.error(`${name} ${page}: ${fmt(run.reqPerSec)} req/s, p99 ${run.p99} ms`);
  return run;
}

/** Quire with Source. */
const quire = (cacheMb, main, port) => startSourceSite(posts, { cpu: 0, main, env: { PORT: String(port), RESPONSE_CACHE_MB: String(cacheMb) } });

async function ghost() {
  const server = await startGhost({ port: GHOST_PORT, cpu: 0 });
  try {
    const call = adminApi(server.base, server.adminKey);
    await clearSite(call);
    await seedThroughApi(call, posts);
    return server;
  } catch (err) {
    await server.stop();
    throw err;
  }
}

const builds = (process.env.BENCH_BUILDS ?? 'quire=dist/main.mjs').split(',').map((entry) => {
  const [label, main] = entry.includes('=') ? entry.split('=') : [entry, entry];
  return { label, main, cached: [], uncached: [] };
});
// Every server is started and seeded first (idle, they take no CPU), then each page is driven on each server
// in turn: a change in the machine's load (it is shared) falls on all of them alike, not on one.
const servers = [];
try {
  const reference = ghostInstalled() ? await ghost() : null;
  if (reference) servers.push(reference);
  let port = QUIRE_PORT;
  for (const build of builds) {
    build.cachedServer = await quire(64, build.main, port++);
    servers.push(build.cachedServer);
    build.uncachedServer = await quire(0, build.main, port++);
    servers.push(build.uncachedServer);
  }
  const ghostRuns = [];
  for (const page of PAGES) {
    if (reference) ghostRuns.push(await measurePage('ghost', reference.base, reference.pid, page));
    for (const build of builds) {
      build.cached.push(await measurePage(`${build.label} cache on`, build.cachedServer.base, build.cachedServer.pid, page));
      build.uncached.push(await measurePage(`${build.label} cache off`, build.uncachedServer.base, build.uncachedServer.pid, page));
    }
  }
  const load = (await import('node:os'))
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(', ');
  console.log(`Site pages with Source, ${posts} posts, 16 connections, ${seconds} s each, servers on one core (req/s / p99 ms); load average ${load}\n`);
  for (const { label, cached, uncached } of builds) {
    const rows = PAGES.map((page, i) => {
      const g = ghostRuns[i];
      const ratio = (run) => (g ? `${fmt(run.reqPerSec / g.reqPerSec, 1)}× / ${fmt(g.p99 / Math.max(run.p99, 1), 1)}×` : '—');
      return [
        page,
        g ? `${fmt(g.reqPerSec)} / ${g.p99}` : '—',
        `${fmt(cached[i].reqPerSec)} / ${cached[i].p99}`,
        ratio(cached[i]),
        `${fmt(uncached[i].reqPerSec)} / ${uncached[i].p99}`,
        ratio(uncached[i]),
      ];
    });
    console.log(`${label}:`);
    console.log(table(['page', 'Ghost 5.130.6', 'Quire, cache on', 'rate / p99 ratio', 'Quire, cache off', 'rate / p99 ratio'], rows));
    console.log('');
  }
} finally {
  for (const server of servers) await server.stop();
}
