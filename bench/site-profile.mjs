// Where an uncached site page spends its time: the built server (page cache off) under `node --cpu-prof`,
// driven by autocannon on one page at a time, then the profile's self time summed by function and by file.
// Same site as bench/site-pages.mjs (Source, N posts). Proportions hold on a loaded machine; absolute
// times do not. Usage: npm run build && node bench/site-profile.mjs [seconds per page] [posts] [page…]
// (BENCH_MAIN=other/main.mjs profiles another build; the profile is kept in bench-profiles/).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startSourceSite } from './site-content.mjs';

const seconds = Number(process.argv[2] ?? 5);
const posts = Number(process.argv[3] ?? 60);
const pages = process.argv.length > 4 ? process.argv.slice(4) : ['/', '/bench-post-1/', '/tag/topic-1/', '/page/2/', '/rss/'];
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const profileDir = path.join(root, 'bench-profiles', `site-${Date.now()}`);
mkdirSync(profileDir, { recursive: true });

try {
  execFileSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
} catch {
  // No taskset: the server and the load generator share the cores.
}

const server = await startSourceSite(posts, {
  cpu: 0,
  main: process.env.BENCH_MAIN ?? 'dist/main.mjs',
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
  env: { PORT: process.env.BENCH_QUIRE_PORT ?? '42790', RESPONSE_CACHE_MB: process.env.RESPONSE_CACHE_MB ?? '0' },
});
const windows = [];
try {
  for (const page of pages) {
    const res = await fetch(`${server.base}${page}`);
    if (res.status !== 200) throw new Error(`${page}: ${res.status}`);
    await autocannon({ url: `${server.base}${page}`, connections: 16, duration: 1 });
    // V8's profile clock and hrtime are both the monotonic clock: only samples inside these windows count.
    const from = Number(process.hrtime.bigint() / 1000n);
    const result = await autocannon({ url: `${server.base}${page}`, connections: 16, duration: seconds });
    windows.push({ page, from, to: Number(process.hrtime.bigint() / 1000n) });
    console.log(`${page}: ${Math.round(result.requests.total / seconds)} req/s, p99 ${result.latency.p99} ms`);
  }
} finally {
  await server.stop();
}

// The main thread's profile (worker threads write their own, numbered after it).
const file = readdirSync(profileDir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .sort()[0];
if (!file) throw new Error('no profile written');
const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const self = new Map();
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  if (!windows.some((w) => at >= w.from && at <= w.to)) continue;
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFunction = new Map();
const byFile = new Map();
const inclusive = new Map();
const byArea = new Map();
// Areas of a render, by the first frame (from the leaf up) that names one.
const AREAS = [
  ['dates (moment)', (f) => f.url.includes('moment') || (f.url.includes('dist/') && f.functionName === 'date')],
  ['excerpt cuts (downsize)', (f) => /downsize|xregexp/.test(f.url)],
  ['template options deep copy (lodash)', (f) => f.url.includes('lodash')],
  ['SQL: running queries', (f) => f.url.includes('better-sqlite3') || (f.url.includes('dist/') && ['all', 'convertRow', 'toDate$1'].includes(f.functionName))],
  [
    'SQL: building queries (kysely, nql)',
    (f) => /kysely|nql/.test(f.url) || /^(visit|compile|cloneWith|createSelectQueryBuilder|parseStringReference)/.test(f.functionName),
  ],
  ['presenting posts', (f) => /present|contentPosts|loadRecords|OfPosts|applyOrder|zonedIso/.test(f.functionName)],
  ['etag hash', (f) => f.url.includes('crypto')],
  ['templates (handlebars, express-hbs, helpers)', (f) => /handlebars|express-hbs/.test(f.url)],
];
const areaOf = (id) => {
  for (let node = id; node !== undefined; node = parentOf.get(node)) {
    const frame = byId.get(node).callFrame;
    for (const [name, test] of AREAS) if (test(frame)) return name;
  }
  // Nothing of a render on the stack: the HTTP server's own work (node's http, fastify's hooks and reply).
  for (let node = id; node !== undefined; node = parentOf.get(node))
    if (byId.get(node).callFrame.url.startsWith('node:')) return 'HTTP server, fastify and other site code';
  const leaf = byId.get(id).callFrame;
  return leaf.url ? 'other (site code, fastify)' : leaf.functionName;
};
const shortUrl = (url) =>
  url
    .replace(/^file:\/\//, '')
    .replace(`${root}/`, '')
    .replace(/^.*node_modules\//, 'nm/');
for (const [id, micros] of self) {
  const { callFrame } = byId.get(id);
  const where = shortUrl(callFrame.url) || '(native)';
  const fn = `${callFrame.functionName || '(anonymous)'} ${where}:${callFrame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
  byFile.set(where, (byFile.get(where) ?? 0) + micros);
  const area = areaOf(id);
  byArea.set(area, (byArea.get(area) ?? 0) + micros);
  // Inclusive time: each function on the sample's (synchronous) stack once.
  const seen = new Set();
  for (let node = id; node !== undefined; node = parentOf.get(node)) {
    const frame = byId.get(node).callFrame;
    if (!frame.url.includes('dist/') && !frame.url.includes('node_modules')) continue;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
  }
}
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, micros]) => `${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
console.log(`\nprofile: ${path.join(profileDir, file)} (${(total / 1e6).toFixed(1)} s sampled)`);
console.log(`\nby area:\n${top(byArea, 20)}`);
console.log(`\nself time by file:\n${top(byFile, 25)}`);
console.log(`\nself time by function:\n${top(byFunction, 45)}`);
console.log(`\ntotal (synchronous stack) time by function:\n${top(inclusive, 45)}`);
