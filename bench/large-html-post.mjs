// Saving a large post sent as html (`POST /posts/?source=html`, as Ghost's migration tools and the Admin SDK's
// `source: 'html'` do): time to the answer and how far the server's resident memory rises above its level
// before the save (sampled every 20 ms). Each run uses a fresh server, so runs do not warm one another.
// Usage: npm run build && node bench/large-html-post.mjs [MB] [runs] [text|mixed]   (PORT picks the server's port)
// `text`: paragraphs of plain prose (most of a long imported post); `mixed`: sections of headings, formatted
// paragraphs, lists, quotes, images and code (many more elements per KB).
import { largeHtml } from '../test/fixtures/large-html.mjs';
import { keysFor, adminToken, cpuSecondsOf, pageFaultsOf, rssMbOf, startServer, waitUntilIdle } from './posts-common.mjs';

const megabytes = Number(process.argv[2] ?? 12);
const runs = Number(process.argv[3] ?? 1);
const kind = process.argv[4] ?? 'text';

const html = largeHtml(kind, megabytes * 1024 * 1024);
const body = JSON.stringify({ posts: [{ title: 'A very long imported post', html }] });

for (let run = 1; run <= runs; run++) {
  // BENCH_CPU_PROF=1 writes CPU profiles of the server's threads to ./bench-profiles/.
  const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=bench-profiles'] : [];
  // BENCH_MAIN serves another build (e.g. another worktree's dist/main.mjs) to compare before and after.
  const main = process.env.BENCH_MAIN ?? 'dist/main.mjs';
  const server = await startServer({ nodeArgs, main, env: process.env.PORT ? { PORT: process.env.PORT } : {} });
  const { adminKey } = await keysFor(server.base);
  // A small html post first, so the worker threads and their renderers are warm: the figure is a warm server's.
  // The server also warms a thread's renderers 2 s after staff first show up (main.ts); the save starts once
  // that is over, so a thread warming beside it (~75 MB) is not counted as the save's.
  await save(server, adminKey, JSON.stringify({ posts: [{ title: 'Warm-up', html: '<p>Hello</p>' }] }));
  await new Promise((resolve) => setTimeout(resolve, 2500));
  await waitUntilIdle(server.pid);

  const before = server.rssMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMbOf(server.pid))), 20);
  const cpuBefore = cpuSecondsOf(server.pid);
  const faultsBefore = pageFaultsOf(server.pid);
  const started = performance.now();
  const saved = await save(server, adminKey, body);
  const ms = performance.now() - started;
  // CPU time of all the server's threads during the save: unlike the wall time, not stretched by a busy machine.
  const cpu = cpuSecondsOf(server.pid) - cpuBefore;
  const faults = pageFaultsOf(server.pid) - faultsBefore;
  clearInterval(sampler);
  peak = Math.max(peak, server.rssMb());
  console.log(
    `${main} run ${run}: ${(html.length / 1024 / 1024).toFixed(1)} MB html (${kind}) saved in ${ms.toFixed(0)} ms, ${cpu.toFixed(1)} CPU s (status ${saved.status}, ` +
      `lexical ${(saved.lexicalBytes / 1024 / 1024).toFixed(1)} MB); RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB ` +
      `(+${(peak - before).toFixed(0)} MB); ${(faults / 1000).toFixed(0)}k page faults`,
  );
  await server.stop();
}

async function save(server, adminKey, payload) {
  const res = await fetch(`${server.base}/ghost/api/admin/posts/?source=html&formats=lexical`, {
    method: 'POST',
    headers: { authorization: `Ghost ${adminToken(adminKey)}`, 'content-type': 'application/json' },
    body: payload,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`save answered ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, lexicalBytes: JSON.parse(text).posts[0].lexical?.length ?? 0 };
}
