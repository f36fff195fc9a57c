// `limit=all` over 1,000, 5,000 and 10,000 posts (~1,000 words each, 3 tags, one author): the server's peak RSS
// while answering, time to first byte and total time. Each site is seeded through `quire import` of the export
// `npm run bench` imports (site-content.mjs), then served by the built server.
// Usage: npm run build && node bench/limit-all.mjs [POSTS=1000,5000,10000]
// QUIRE_MAIN=/other/checkout/dist/main.mjs serves another build (before/after comparisons); QUERY replaces the
// query string (default `include=tags,authors`).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { writeGhostExport } from './site-content.mjs';

const root = path.dirname(new URL(import.meta.url).pathname);
const sizes = (process.argv[2] ?? '1000,5000,10000').split(',').map(Number);
const main = process.env.QUIRE_MAIN ?? path.join(root, '../dist/main.mjs');
const cliFile = path.join(path.dirname(main), 'cli.mjs');
const query = process.env.QUERY ?? 'include=tags,authors';

function cli(args, env) {
  return execFileSync(process.execPath, [cliFile, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

async function serve(env, port) {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn', JOBS_ENABLED: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ghost/api/admin/site/`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return child;
}

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

/** One GET, timed: first body byte and last, the server's RSS sampled every 5 ms meanwhile. */
function timedGet(url, pid) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let peak = rssKb(pid);
    const timer = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 5);
    let firstByte = null;
    let bytes = 0;
    request(url, (res) => {
      res.on('data', (chunk) => {
        firstByte ??= performance.now() - started;
        bytes += chunk.length;
      });
      res.on('end', () => {
        clearInterval(timer);
        resolve({
          status: res.statusCode,
          chunked: res.headers['transfer-encoding'] === 'chunked',
          firstByte,
          total: performance.now() - started,
          bytes,
          peakMb: peak / 1024,
        });
      });
    })
      .on('error', reject)
      .end();
  });
}

console.log(
  `server: ${main}; GET /posts/?limit=all&${query}; load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
for (const count of sizes) {
  const folder = mkdtempSync(path.join(tmpdir(), 'quire-bench-all-'));
  const port = 28000 + Math.floor(Math.random() * 900);
  const env = {
    DATABASE_URL: `sqlite:${path.join(folder, 'quire.db')}`,
    CONTENT_DIR: folder,
    SITE_URL: `http://127.0.0.1:${port}/`,
    STAFF_DEVICE_VERIFICATION: 'false',
  };
  await writeGhostExport(path.join(folder, 'site.json'), count);
  const keys = cli(
    ['setup', '--email', 'owner@example.com', '--password', 'Bench-pass-2026!', '--name', 'Owner', '--title', 'Bench', '--integration', 'Bench'],
    env,
  );
  const contentKey = /CONTENT_KEY=(\w+)/.exec(keys)[1];
  cli(['import', '--file', path.join(folder, 'site.json')], env);
  const server = await serve(env, port);
  const url = `http://127.0.0.1:${port}/ghost/api/content/posts/?limit=all&${query}&key=${contentKey}`;
  // Worker threads and the renderer warm up after the first answers: idle RSS is read once they have.
  await timedGet(url.replace('limit=all', 'limit=15'), server.pid);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = rssKb(server.pid) / 1024;
  const runs = [];
  for (let i = 0; i < 4; i++) runs.push(await timedGet(url, server.pid));
  const last = runs.at(-1);
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const warm = runs.slice(1);
  console.log(
    `${String(count).padStart(6)} posts: ${(last.bytes / 1024 / 1024).toFixed(1)} MB ${last.chunked ? 'chunked' : 'whole'} (status ${last.status}); ` +
      `first byte ${median(warm.map((r) => r.firstByte)).toFixed(0)} ms, total ${median(warm.map((r) => r.total)).toFixed(0)} ms (median of 3 after one warm-up); ` +
      `RSS idle ${idle.toFixed(0)} MB, peak while answering ${Math.max(...runs.map((r) => r.peakMb)).toFixed(0)} MB`,
  );
  server.kill('SIGTERM');
  await once(server, 'exit');
  execFileSync('rm', ['-rf', folder]);
}
