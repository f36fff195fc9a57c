// Member writes through the official Admin API SDK, without and then with webhooks listening to member.* (the
// member payload is serialised in the write's transaction only when one listens), then the members activity
// feed over what they recorded. Usage: npm run build && node bench/member-writes.mjs [members] [port]
import { createServer } from 'node:http';
import GhostAdminAPI from '@tryghost/admin-api';
import { adminToken, keysFor, startServer } from './posts-common.mjs';

const count = Number(process.argv[2] ?? 200);
const port = process.argv[3];
const server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', ...(port ? { PORT: port } : {}) } });
const { adminKey } = await keysFor(server.base);
const api = new GhostAdminAPI({ url: server.base, key: adminKey, version: 'v5.0' });
const receiver = createServer((request, response) => request.resume().on('end', () => response.end('ok')));
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

const stats = (times) => {
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, ms) => sum + ms, 0) / times.length;
  return `mean ${mean.toFixed(1)} ms, median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, p99 ${times[Math.floor(times.length * 0.99)].toFixed(1)} ms`;
};

async function round(label) {
  const adds = [];
  const edits = [];
  for (let i = 0; i < count; i++) {
    let started = performance.now();
    const member = await api.members.add({ email: `${label.replace(/\W+/g, '-')}-${i}@example.com`, name: `Member ${i}`, labels: [`Group ${i % 5}`] });
    adds.push(performance.now() - started);
    started = performance.now();
    await api.members.edit({ id: member.id, name: `Renamed ${i}`, newsletters: [] });
    edits.push(performance.now() - started);
  }
  console.log(`${label}: add (${count}) ${stats(adds)}; edit ${stats(edits)}`);
}

await api.members.add({ email: 'warm-up@example.com' });
await round('no webhook');
for (const event of ['member.added', 'member.edited', 'member.deleted']) {
  await api.webhooks.add({ event, target_url: `http://127.0.0.1:${receiver.address().port}/${event}` });
}
await round('member.* webhooks');

const feed = [];
for (let i = 0; i < 50; i++) {
  const started = performance.now();
  const res = await fetch(`${server.base}/ghost/api/admin/members/events/?limit=20`, { headers: { authorization: `Ghost ${adminToken(adminKey)}` } });
  await res.json();
  feed.push(performance.now() - started);
}
console.log(`activity feed, limit=20 over ${count * 2 * 3 + 2} events: ${stats(feed)}; server RSS ${server.rssMb().toFixed(0)} MB`);
receiver.close();
await server.stop();
