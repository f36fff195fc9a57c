// Where the server's resident memory goes, phase by phase: started, after set-up, after 200 posts through the
// Admin API (worker threads busy), after the threads' idle end (`SETTLE` s, default 75), during three of `npm run
// bench`'s reads (cache on) and `REST` s after them (default 60); then the largest mappings of /proc/PID/smaps
// (the `node` binary's pages, malloc's main heap `[heap]`, anonymous memory: V8's heap, other arenas, stacks).
// FRESH=1 runs the reads on a new process over the seeded database instead (one that never ran a worker thread).
// Usage: npm run build && node bench/memory-phases.mjs   (BENCH_MAIN serves another build; SNAP=1 asks the server
// for a heap snapshot at the end, written to its working folder, when it was started with NODE_OPTIONS=--heapsnapshot-signal=SIGUSR2)
import { readFileSync } from 'node:fs';
import { drive } from './load.mjs';
import { keysFor, startServer, waitUntilIdle } from './posts-common.mjs';
import { adminApi, clearSite, seedThroughApi } from './site-content.mjs';

const settle = Number(process.env.SETTLE ?? 75);
const rest = Number(process.env.REST ?? 60);
const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** Resident MB by mapping (file, `[heap]`, `[anon]`), the largest first. */
function mappings(pid) {
  const groups = {};
  let name = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      // A file's segments apart (the binary's code, its read-only data such as ICU's tables, its data).
      name = head[2] ? `${head[2]} ${head[1]}` : '[anon]';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) groups[name] = (groups[name] ?? 0) + Number(rss[1]);
  }
  return Object.entries(groups)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([file, kb]) => `${(kb / 1024).toFixed(1)} MB ${file}`)
    .join('\n');
}

const main = process.env.BENCH_MAIN ?? 'dist/main.mjs';
let server = await startServer({ cpu: 0, main });
const mark = (label) => console.log(`${label}: ${server.rssMb().toFixed(1)} MB`);
mark('started');
const keys = await keysFor(server.base);
mark('set up');
const call = adminApi(server.base, keys.adminKey);
await clearSite(call);
await seedThroughApi(call, 200);
await waitUntilIdle(server.pid);
mark('200 posts added');
if (process.env.FRESH) {
  // The reads on a new process over the same database: one that never ran a worker thread.
  await server.stop();
  server = await startServer({ cpu: 0, main, dir: server.dir });
  mark('a new process on that database');
} else {
  await sleep(settle);
  mark(`${settle} s later`);
}
const content = (url) => `${server.base}/ghost/api/content/${url}${url.includes('?') ? '&' : '?'}key=${keys.contentKey}`;
for (const url of ['posts/?include=tags,authors', 'tags/?include=count.posts&limit=all', 'pages/']) {
  const result = await drive(content(url), { pid: server.pid, seconds: 5, connections: 16, warmupSeconds: 1 });
  console.log(`${url}: ${result.reqPerSec.toFixed(0)} req/s, peak ${result.peakRssMb.toFixed(1)} MB`);
  await waitUntilIdle(server.pid);
}
mark('after the reads');
await sleep(rest);
mark(`${rest} s later`);
console.log(mappings(server.pid));
if (process.env.SNAP) {
  process.kill(server.pid, 'SIGUSR2');
  await sleep(8);
}
await server.stop();
