/**
 * Throughput of a Content API read at 100 and at 1,000 concurrent connections (issue 22: the goal is ≥ 80 % of
 * the 100-connection figure at 1,000, no answer over 2 s), against a built Quire (`--main`) on SQLite with the
 * response cache off, so every request takes the whole read path.
 *
 *   taskset -c 1 node bench/many-readers.mjs [--main dist/main.mjs] [--seconds 10] [--port 3104] [--server-cpu 0]
 *
 * Read the figures with care: autocannon's latencies count answered requests only, so at 1,000 connections a
 * low p50 beside a `max` near the run's length means many connections waited without an answer; and on a
 * machine whose cores other work shares, the two runs are not comparable. Give the server and this process
 * cores of their own: `--server-cpu` pins the server, `taskset` this process. `over2s` counts answers that took
 * longer than 2 s (from the connection's start for a request sent on a new connection, so a SYN the kernel
 * dropped and retried counts), `okPerSec` the 2xx answers only (503s of shed load are no throughput), `shed503` the 503s, `cpuS` the CPU seconds the server used (all its threads) and
 * `okPerCpuS` its 2xx answers per CPU second, which a busy machine's share of the core changes less.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { adminToken, cpuSecondsOf, keysFor, lexicalPost, startServer } from './posts-common.mjs';

const { values } = parseArgs({
  options: {
    main: { type: 'string', default: 'dist/main.mjs' },
    seconds: { type: 'string', default: '10' },
    port: { type: 'string', default: '3104' },
    'server-cpu': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const server = await startServer({ main: values.main, cpu: values['server-cpu'], env: { PORT: values.port, RESPONSE_CACHE_MB: '0' } });
try {
  const keys = await keysFor(server.base);
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${server.base}/ghost/api/admin/posts/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Ghost ${adminToken(keys.adminKey)}` },
      body: JSON.stringify({
        posts: [{ title: `Post ${i}`, status: 'published', lexical: lexicalPost(1000, i), tags: [{ name: `tag ${i % 5}` }] }],
      }),
    });
    if (res.status !== 201) throw new Error(`seeding: ${res.status} ${await res.text()}`);
  }
  const url = `${server.base}/ghost/api/content/posts/?key=${keys.contentKey}&include=tags,authors&limit=5`;
  const out = {};
  for (const connections of [100, 1000]) {
    await autocannon({ url, connections, duration: 3 });
    const run = autocannon({ url, connections, duration: seconds, timeout: 30 });
    let over2s = 0;
    let ok = 0;
    let shed = 0;
    run.on('response', (_client, status, _bytes, ms) => {
      if (ms > 2000) over2s++;
      if (status >= 200 && status < 300) ok++;
      if (status === 503) shed++;
    });
    const cpuBefore = cpuSecondsOf(server.pid);
    const r = await run;
    const cpuS = cpuSecondsOf(server.pid) - cpuBefore;
    out[connections] = {
      reqPerSec: Math.round(r.requests.total / seconds),
      okPerSec: Math.round(ok / seconds),
      cpuS: +cpuS.toFixed(1),
      okPerCpuS: Math.round(ok / cpuS),
      p50: r.latency.p50,
      p99: r.latency.p99,
      max: r.latency.max,
      over2s,
      shed503: shed,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
    };
  }
  out.ratio = +(out[1000].okPerSec / out[100].okPerSec).toFixed(2);
  out.loadavg = loadavg().map((load) => +load.toFixed(2));
  console.log(JSON.stringify({ main: values.main, seconds, ...out }));
} finally {
  await server.stop();
}
