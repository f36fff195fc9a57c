// Webhook delivery latency, commit → receiver, under a steady write rate: tags are created at `rate` per second
// (open loop: one request every 1000/rate ms, not waiting for answers), each firing `tag.added` to a receiver on
// loopback that answers 200 at once. A write's commit time is taken as the moment its answer arrives (a little
// after the commit), so the figures slightly understate the latency.
// Usage: npm run build && node bench/webhook-latency.mjs [rate=100] [seconds=15] [DATABASE_URL of an empty database]
import { createServer } from 'node:http';
import { startServer } from './posts-common.mjs';

const rate = Number(process.argv[2] ?? 100);
const seconds = Number(process.argv[3] ?? 15);
const databaseUrl = process.argv[4];

const arrivals = new Map();
const receiver = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const at = performance.now();
    const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).tag?.current?.id;
    if (id && !arrivals.has(id)) arrivals.set(id, at);
    response.writeHead(200).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const target = `http://127.0.0.1:${receiver.address().port}/hook`;

const server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) } });
const admin = `${server.base}/ghost/api/admin`;
const json = { 'content-type': 'application/json', origin: server.base };
const owner = { name: 'Owner Person', email: 'owner@example.com', password: 'Sup3r-secret-pass!', blogTitle: 'Bench' };
await fetch(`${admin}/authentication/setup/`, { method: 'POST', headers: json, body: JSON.stringify({ setup: [owner] }) });
const login = await fetch(`${admin}/session/`, { method: 'POST', headers: json, body: JSON.stringify({ username: owner.email, password: owner.password }) });
const session = { ...json, cookie: login.headers.get('set-cookie').split(';')[0] };
const made = await fetch(`${admin}/integrations/`, { method: 'POST', headers: session, body: JSON.stringify({ integrations: [{ name: 'Bench' }] }) });
const integrationId = (await made.json()).integrations[0].id;
const hook = await fetch(`${admin}/webhooks/`, {
  method: 'POST',
  headers: session,
  body: JSON.stringify({ webhooks: [{ event: 'tag.added', target_url: target, integration_id: integrationId }] }),
});
if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${await hook.text()}`);

const committed = new Map();
const writes = [];
const total = rate * seconds;
const started = performance.now();
for (let i = 0; i < total; i++) {
  const due = started + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  writes.push(
    fetch(`${admin}/tags/`, { method: 'POST', headers: session, body: JSON.stringify({ tags: [{ name: `Latency ${i}` }] }) })
      .then((res) => res.json())
      .then((body) => committed.set(body.tags[0].id, performance.now())),
  );
}
await Promise.all(writes);
const achieved = total / ((performance.now() - started) / 1000);
const deadline = performance.now() + 120_000;
while (arrivals.size < committed.size && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
const latencies = [...committed].map(([id, at]) => (arrivals.get(id) ?? Infinity) - at).sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(0);
console.log(
  `webhook latency (${databaseUrl ? databaseUrl.split(':')[0] : 'sqlite'}, ${total} writes at ${achieved.toFixed(0)}/s): p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${pct(1)} ms, ${arrivals.size}/${committed.size} arrived`,
);
await server.stop();
receiver.close();
