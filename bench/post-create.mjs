// Post create through the official Admin API SDK: ~1,000-word lexical posts with 3 tags, one after another
// (design.md §6: Ghost 5.130.6 took 51 ms per post; target ≤ 5 ms). Usage: npm run build && node bench/post-create.mjs [posts]
import GhostAdminAPI from '@tryghost/admin-api';
import { keysFor, lexicalPost, startServer } from './posts-common.mjs';

const count = Number(process.argv[2] ?? 200);
const server = await startServer();
const { adminKey } = await keysFor(server.base);
const api = new GhostAdminAPI({ url: server.base, key: adminKey, version: 'v5.0' });

// The first write pays the renderers' start-up if the server has not warmed them yet; keep it out of the figures.
await api.posts.add({ title: 'Warm-up', lexical: lexicalPost(1000, 0) });
const times = [];
for (let i = 0; i < count; i++) {
  const started = performance.now();
  await api.posts.add({ title: `Created ${i}`, lexical: lexicalPost(1000, i), tags: [`Topic ${i % 10}`, `Series ${i % 7}`, `Tag ${i % 13}`] });
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const mean = times.reduce((sum, ms) => sum + ms, 0) / times.length;
console.log(
  `post create through the SDK (${count} posts): mean ${mean.toFixed(1)} ms, median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, p99 ${times[Math.floor(times.length * 0.99)].toFixed(1)} ms, server RSS ${server.rssMb().toFixed(0)} MB`,
);
await server.stop();
