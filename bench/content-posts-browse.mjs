// Content API posts browse with include=tags,authors over 200 published ~1,000-word posts with 3 tags each
// (design.md §6: Ghost 5.130.6 measured 45 req/s, p99 ≈ 590 ms at 16 connections). Also post by slug and
// tags with count.posts. Usage: npm run build && node bench/content-posts-browse.mjs [seconds]
import autocannon from 'autocannon';
import { adminToken, keysFor, lexicalPost, startServer } from './posts-common.mjs';

const seconds = Number(process.argv[2] ?? 10);
const server = await startServer();
const { adminKey, contentKey } = await keysFor(server.base);
for (let i = 0; i < 200; i++) {
  const post = { title: `Bench post ${i}`, lexical: lexicalPost(1000, i), status: 'published', tags: [`Topic ${i % 10}`, `Series ${i % 7}`, `Tag ${i % 13}`] };
  const res = await fetch(`${server.base}/ghost/api/admin/posts/`, {
    method: 'POST',
    headers: { authorization: `Ghost ${adminToken(adminKey)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ posts: [post] }),
  });
  if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
}

async function run(title, path) {
  const result = await autocannon({
    url: `${server.base}/ghost/api/content/${path}${path.includes('?') ? '&' : '?'}key=${contentKey}`,
    connections: 16,
    duration: seconds,
  });
  const non2xx = result.non2xx + result.errors;
  console.log(
    `${title}: ${result.requests.average.toFixed(0)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${non2xx} failures, server RSS ${server.rssMb().toFixed(0)} MB`,
  );
}

await run('content posts browse include=tags,authors (15 per page)', 'posts/?include=tags,authors');
await run('content post by slug', 'posts/slug/bench-post-100/');
await run('content posts filtered by tag', 'posts/?filter=tag:topic-3&include=tags');
await run('content tags include=count.posts', 'tags/?include=count.posts');
await server.stop();
