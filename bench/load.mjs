// What the comparison measures on a running server, Quire or Ghost alike: a read under load (autocannon,
// in this process), one `limit=all` answer as it streams in, and post creation through the official SDK.
// The server's memory is sampled from /proc while each runs.
import http from 'node:http';
import GhostAdminAPI from '@tryghost/admin-api';
import autocannon from 'autocannon';
import { lexicalPost, rssMbOf } from './posts-common.mjs';

/** Runs `work` while sampling the resident memory of process `pid`; adds `peakRssMb` to its result. */
export async function withPeakRss(pid, work, everyMs = 100) {
  let peak = rssMbOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMbOf(pid))), everyMs);
  try {
    const result = await work();
    return { ...result, peakRssMb: Math.max(peak, rssMbOf(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * `connections` clients asking `url` back to back for `seconds`, after `warmupSeconds` of the same (JIT,
 * connection pools, caches: a long-running server is measured). `generatorCpu` is the share of a core this
 * process used: near 1 means the figures are bounded by the load generator, not the server.
 */
export async function drive(url, { pid, seconds, connections, warmupSeconds }) {
  if (warmupSeconds > 0) await autocannon({ url, connections, duration: warmupSeconds });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  return withPeakRss(pid, async () => {
    const result = await autocannon({ url, connections, duration: seconds });
    const cpu = process.cpuUsage(cpuBefore);
    return {
      reqPerSec: result.requests.total / seconds,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: result.non2xx + result.errors,
      generatorCpu: (cpu.user + cpu.system) / 1000 / (performance.now() - started),
    };
  });
}

/** One GET read as it arrives: time to the first byte of the body, to the end, its size and its posts. */
export async function timeStreamedRead(url, pid) {
  return withPeakRss(
    pid,
    () =>
      new Promise((resolve, reject) => {
        const started = performance.now();
        let firstByteMs;
        const chunks = [];
        http
          .get(url, (res) => {
            res.on('data', (chunk) => {
              firstByteMs ??= performance.now() - started;
              chunks.push(chunk);
            });
            res.on('end', () => {
              const totalMs = performance.now() - started;
              const body = Buffer.concat(chunks);
              let posts = NaN;
              try {
                posts = JSON.parse(body.toString('utf8')).posts.length;
              } catch {
                // reported as an unreadable answer
              }
              resolve({ status: res.statusCode, firstByteMs, totalMs, megabytes: body.length / 1024 / 1024, posts });
            });
            res.on('error', reject);
          })
          .on('error', reject);
      }),
    20,
  );
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** `count` ~1,000-word lexical posts with 3 tags, created one after another through `@tryghost/admin-api`. */
export async function timePostCreates(base, adminKey, count) {
  const api = new GhostAdminAPI({ url: base, key: adminKey, version: 'v5.0' });
  const add = (i) => api.posts.add({ title: `Created ${i}`, lexical: lexicalPost(1000, i), tags: [`Created ${i % 10}`, `Series ${i % 7}`, `Topic ${i % 20}`] });
  // The first write may pay for a renderer's start-up; keep it out of the figures.
  await add(-1);
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await add(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p90: percentile(times, 0.9), count };
}
