// `npm run bench`: Quire against Ghost 5.130.6 on design.md §6's figures, side by side in one run.
// Each server runs on a fresh SQLite database pinned to one core (`taskset`); the load generator (autocannon,
// in this process) runs on another. Both sites get the same content (site-content.mjs); the same reads are
// driven for the same time; then the ratios and whether each target is met are printed.
//
//   npm run bench -- [--seconds 10] [--posts 200] [--cold | --warm] [--no-peer] [--no-bare] [--seed api|import]
//                    [--connections 16] [--warmup 1] [--creates 50] [--settle 75] [--peer-seed-timeout 900]
//                    [--server-cpu 0] [--load-cpu 1] [--port 27300] [--peer-port 27368]
//
// Quire runs twice by default: cache off (RESPONSE_CACHE_MB=0, every answer built afresh) and cache on (the
// server's setting; every repeated identical URL is then served warm). --cold or --warm runs one of them.
// After the cache-on run, a bare Node server sends the same answers on the same core (--no-bare skips it):
// the warm reads' target is ≥ 50 % of its req/s.
// Ghost runs when ../shared/peer/ghost-peer.sh has installed it, unless --no-peer.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { comparisonReport, serverReport } from './compare-report.mjs';
import { GHOST_VERSION, ghostInstalled, startGhost } from './ghost-peer.mjs';
import { drive, timePostCreates, timeStreamedRead } from './load.mjs';
import { keysFor, startServer, waitUntilAnswering, waitUntilIdle } from './posts-common.mjs';
import { adminApi, clearSite, importExport, seedThroughApi, writeGhostExport } from './site-content.mjs';

const { values: options } = parseArgs({
  options: {
    posts: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    warmup: { type: 'string', default: '1' },
    creates: { type: 'string', default: '50' },
    settle: { type: 'string', default: '75' },
    seed: { type: 'string' },
    cold: { type: 'boolean', default: false },
    warm: { type: 'boolean', default: false },
    'no-peer': { type: 'boolean', default: false },
    'no-bare': { type: 'boolean', default: false },
    'peer-seed-timeout': { type: 'string', default: '900' },
    'server-cpu': { type: 'string', default: '0' },
    'load-cpu': { type: 'string', default: '1' },
    port: { type: 'string', default: '27300' },
    'peer-port': { type: 'string', default: '27368' },
  },
});
const posts = Number(options.posts);
const load = { seconds: Number(options.seconds), connections: Number(options.connections), warmupSeconds: Number(options.warmup) };
// Thousands of posts through the API take minutes on Ghost (~50 ms each); an export imports them in one go.
const seed = options.seed ?? (posts > 1000 ? 'import' : 'api');
const pinned = os.availableParallelism() > 1;
const serverCpu = pinned ? options['server-cpu'] : undefined;
if (pinned) execFileSync('taskset', ['-a', '-p', '-c', options['load-cpu'], String(process.pid)], { stdio: 'ignore' });

const middle = Math.floor(posts / 2);
const READS = [
  { name: 'posts browse include=tags,authors', path: 'posts/?include=tags,authors', target: true },
  { name: 'post by slug', path: `posts/slug/bench-post-${middle}/`, target: true },
  { name: 'filtered browse filter=tag:topic-3', path: 'posts/?filter=tag:topic-3&include=tags,authors', target: true },
  { name: 'tags include=count.posts limit=all', path: 'tags/?include=count.posts&limit=all', target: true },
  { name: 'settings', path: 'settings/', target: true },
  { name: 'authors browse', path: 'authors/', target: true },
  { name: 'pages browse', path: 'pages/', target: true },
  // The first call of Ghost's admin app and of many clients; not a Content API read, so no target.
  { name: 'admin site', path: 'site/', api: 'admin', target: false },
];

/** What the answer held, so that a reader sees both servers answered the same thing. */
function describe(body) {
  const [resource] = Object.keys(body).filter((key) => key !== 'meta');
  const rows = body[resource];
  if (!Array.isArray(rows)) return resource;
  const total = body.meta?.pagination?.total;
  return total === undefined ? `${rows.length} ${resource}` : `${rows.length}/${total} ${resource}`;
}

const folder = mkdtempSync(path.join(os.tmpdir(), 'quire-compare-'));
const exportFile = path.join(folder, 'site.json');
if (seed === 'import') await writeGhostExport(exportFile, posts);
const log = (line) => console.error(line);

/** Seeds a fresh site, drives every read, times `limit=all` and post creation. */
async function measure(site, { label, notes, seedTimeoutMs }) {
  const call = adminApi(site.base, site.adminKey);
  await clearSite(call);
  log(`${label}: seeding ${posts} posts (${seed})…`);
  const seeding = performance.now();
  if (seed === 'import') await importExport(site.base, site.contentKey, exportFile, posts, { timeoutMs: seedTimeoutMs });
  else await seedThroughApi(call, posts, { log });
  const seedSeconds = (performance.now() - seeding) / 1000;
  const idleMs = await waitUntilIdle(site.pid);
  log(`${label}: seeded in ${seedSeconds.toFixed(1)} s, idle ${(idleMs / 1000).toFixed(1)} s later`);
  // Quire's worker threads (renderers, ~80 MB each) end after 60 s without work, noticed a few seconds later:
  // the reads then run on a site that is only being read, as most of a publishing site's day is. --settle 0
  // reads at once.
  await new Promise((resolve) => setTimeout(resolve, Number(options.settle) * 1000));
  const content = (url) => `${site.base}/ghost/api/content/${url}${url.includes('?') ? '&' : '?'}key=${site.contentKey}`;
  const reads = [];
  for (const read of READS) {
    const url = read.api === 'admin' ? `${site.base}/ghost/api/admin/${read.path}` : content(read.path);
    const res = await fetch(url);
    const text = await res.text();
    if (!res.ok) throw new Error(`${label}: GET ${read.path} → ${res.status} ${text.slice(0, 300)}`);
    log(`${label}: ${read.name}…`);
    const figures = await drive(url, { pid: site.pid, ...load });
    // Requests still queued when the generator stops would otherwise be served during the next read.
    await waitUntilIdle(site.pid);
    const answer = { url, type: res.headers.get('content-type'), body: text };
    reads.push({ ...read, check: describe(JSON.parse(text)), kb: Buffer.byteLength(text) / 1024, answer, ...figures });
  }
  const limitAll = [];
  for (let i = 0; i < 2; i++) {
    const restRssMb = site.rssMb();
    limitAll.push({ restRssMb, ...(await timeStreamedRead(content('posts/?limit=all'), site.pid)) });
    await waitUntilIdle(site.pid);
  }
  log(`${label}: post create…`);
  const creates = await timePostCreates(site.base, site.adminKey, Number(options.creates));
  return { label, notes, posts, seed, seedSeconds, idleMs, startMs: site.startMs, reads, limitAll, creates };
}

async function benchQuire(mode) {
  const env = { PORT: options.port, ...(mode === 'cache off' ? { RESPONSE_CACHE_MB: '0' } : {}) };
  const server = await startServer({ cpu: serverCpu, env });
  const keys = await keysFor(server.base);
  const cache =
    mode === 'cache off'
      ? 'response cache off (RESPONSE_CACHE_MB=0): every answer is built afresh'
      : cacheBuilt
        ? `response cache on (RESPONSE_CACHE_MB=${process.env.RESPONSE_CACHE_MB ?? 'default'}): the reads repeat identical URLs, so after the first answer they are warm`
        : 'this build has no response cache (dist/main.mjs never reads RESPONSE_CACHE_MB): a second cold run, not warm figures';
  try {
    const run = await measure(
      { ...server, ...keys },
      { label: `Quire, ${mode}`, notes: [cache, `server on core ${serverCpu ?? 'any'}, SQLite, ${posts} posts, ${describeLoad()}`] },
    );
    await server.stop();
    // Start again on the database just filled: a restart, as after a deploy.
    const again = await startServer({ cpu: serverCpu, env, dir: server.dir });
    await again.stop();
    const bare = mode === 'cache on' && !options['no-bare'] ? await benchBare(run.reads) : undefined;
    return { ...run, mode, restartMs: again.startMs, bare };
  } finally {
    await server.stop();
    rmSync(server.dir, { recursive: true, force: true });
  }
}

/** The same answers from a bare Node server on the same core: what a warm cache is measured against. */
async function benchBare(reads) {
  const port = Number(options.port) + 1;
  const answers = Object.fromEntries(
    reads.map(({ answer }) => [
      new URL(answer.url).pathname + new URL(answer.url).search,
      { type: answer.type, body: Buffer.from(answer.body).toString('base64') },
    ]),
  );
  const file = path.join(folder, 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const command = [process.execPath, path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-server.mjs'), String(port), file];
  const child = spawn(serverCpu === undefined ? command[0] : 'taskset', serverCpu === undefined ? command.slice(1) : ['-c', serverCpu, ...command], {
    stdio: 'inherit',
  });
  try {
    const local = (url) => `http://127.0.0.1:${port}${new URL(url).pathname}${new URL(url).search}`;
    await waitUntilAnswering(local(reads[0].answer.url));
    const figures = [];
    for (const read of reads) {
      log(`bare Node server: ${read.name}…`);
      figures.push(await drive(local(read.answer.url), { pid: child.pid, ...load }));
    }
    return figures;
  } finally {
    child.kill();
  }
}

async function benchGhost() {
  const ghost = await startGhost({ port: Number(options['peer-port']), cpu: serverCpu });
  try {
    const run = await measure(ghost, {
      label: `Ghost ${GHOST_VERSION}`,
      notes: [`production mode, server on core ${serverCpu ?? 'any'}, SQLite, ${posts} posts, ${describeLoad()}`],
      seedTimeoutMs: Number(options['peer-seed-timeout']) * 1000,
    });
    return { ...run, version: GHOST_VERSION };
  } finally {
    await ghost.stop();
  }
}

function describeLoad() {
  return `${load.connections} connections, ${load.seconds} s per read after ${load.warmupSeconds} s of warm-up, load generator on core ${pinned ? options['load-cpu'] : 'any'}`;
}

// Whether the built server has the response cache at all: its bundle then names the setting.
const cacheBuilt = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist/main.mjs'), 'utf8').includes('RESPONSE_CACHE_MB');
const modes = options.cold === options.warm ? ['cache off', 'cache on'] : options.cold ? ['cache off'] : ['cache on'];
const withPeer = !options['no-peer'] && ghostInstalled();
console.log(
  `# Quire against Ghost ${GHOST_VERSION}: ${new Date().toISOString()}, load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}, node ${process.version}`,
);
if (!withPeer) console.log(options['no-peer'] ? 'Ghost: not run (--no-peer)' : 'Ghost: not installed (../shared/peer/ghost-peer.sh install), not run');

const quireRuns = [];
for (const mode of modes) {
  const run = await benchQuire(mode);
  console.log(serverReport(run));
  quireRuns.push(run);
}
let ghost;
if (withPeer) {
  try {
    ghost = await benchGhost();
    console.log(serverReport(ghost));
  } catch (error) {
    console.log(`\nGhost: no figures (${error.message})`);
  }
}
console.log(comparisonReport(quireRuns, ghost));
console.log(
  `\nload average at the end: ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
rmSync(folder, { recursive: true, force: true });
