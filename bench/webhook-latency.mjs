// Webhook delivery latency, commit → receiver, under a steady write rate. Tags are created at `--rate` per second
// (open loop: one request every 1000/rate ms, not waiting for answers), each firing `tag.added` to `--hooks`
// webhooks on a loopback receiver that answers 200 at once. A write's commit time is taken as the moment its answer
// arrives (a little after the commit), so the figures slightly understate the latency.
//
// Usage: npm run build && node bench/webhook-latency.mjs [--engine sqlite|postgres|mysql] [--rate 100] [--seconds 30] [--hooks 1]
//
// Each run makes a fresh database and drops it after: SQLite in a temporary directory; PostgreSQL and MySQL/MariaDB
// on the server of BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres and
// mysql://root@127.0.0.1:3306/, as the tests use). PORT sets the server's port (random by default).
// Prints p50/p99/max latency over every (write, webhook) pair, deliveries per second while the writes ran and
// overall, how many deliveries arrived twice, and order: how many pairs of writes, one sent after the other's
// answer came, arrived the other way round at a webhook (must be 0), and how many deliveries arrived out of the
// outbox's (created_at, id) order (writes running at once may commit in another order than their events' times).
import http, { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { openSqliteFile } from '../scripts/sqlite-file.mjs';
import { startServer } from './posts-common.mjs';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'sqlite' },
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '30' },
    hooks: { type: 'string', default: '1' },
  },
});
const [rate, seconds, hookCount] = [Number(args.rate), Number(args.seconds), Number(args.hooks)];

/** A fresh database on the engine asked for: its URL, a query returning rows, and a drop. */
async function freshDatabase(engine) {
  const name = `quire_bench_${randomBytes(5).toString('hex')}`;
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-db-'));
    const file = path.join(dir, 'bench.db');
    return {
      url: `sqlite:${file}`,
      query: async (text) => {
        const db = openSqliteFile(file, { readonly: true });
        try {
          return db.prepare(text).all();
        } finally {
          db.close();
        }
      },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (engine === 'postgres') {
    const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    return {
      url: url.toString(),
      query: async (text) => (await client.query(text)).rows,
      drop: async () => {
        await client.end();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  if (engine === 'mysql') {
    const server = new URL(process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/');
    const options = {
      host: server.hostname,
      port: Number(server.port || 3306),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
    };
    const admin = await mysql.createConnection(options);
    await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
    const client = await mysql.createConnection({ ...options, database: name });
    server.pathname = `/${name}`;
    return {
      url: server.toString(),
      query: async (text) => (await client.query(text))[0],
      drop: async () => {
        await client.end();
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
        await admin.end();
      },
    };
  }
  throw new Error(`--engine: sqlite, postgres or mysql, not ${engine}`);
}

const database = await freshDatabase(args.engine);

/** Per webhook path: the tag ids in arrival order, and when each first arrived. */
const received = new Map();
let duplicates = 0;
const receiver = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const at = performance.now();
    const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).tag?.current?.id;
    const hook = received.get(request.url);
    if (id && hook) {
      if (hook.first.has(id)) duplicates++;
      else hook.first.set(id, at);
      hook.order.push(id);
    }
    response.writeHead(200).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const target = `http://127.0.0.1:${receiver.address().port}`;

const server = await startServer({
  nodeArgs: process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [],
  env: { WEBHOOK_ALLOW_PRIVATE: 'true', DATABASE_URL: database.url, ...(process.env.PORT ? { PORT: process.env.PORT } : {}) },
});
try {
  const admin = `${server.base}/ghost/api/admin`;
  const json = { 'content-type': 'application/json', origin: server.base };
  const owner = { name: 'Owner Person', email: 'owner@example.com', password: 'Sup3r-secret-pass!', blogTitle: 'Bench' };
  await fetch(`${admin}/authentication/setup/`, { method: 'POST', headers: json, body: JSON.stringify({ setup: [owner] }) });
  const login = await fetch(`${admin}/session/`, { method: 'POST', headers: json, body: JSON.stringify({ username: owner.email, password: owner.password }) });
  const session = { ...json, cookie: login.headers.get('set-cookie').split(';')[0] };
  const made = await fetch(`${admin}/integrations/`, { method: 'POST', headers: session, body: JSON.stringify({ integrations: [{ name: 'Bench' }] }) });
  const integrationId = (await made.json()).integrations[0].id;
  for (let i = 0; i < hookCount; i++) {
    const hookPath = `/hook-${i}`;
    received.set(hookPath, { first: new Map(), order: [] });
    const hook = await fetch(`${admin}/webhooks/`, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ webhooks: [{ event: 'tag.added', target_url: `${target}${hookPath}`, integration_id: integrationId }] }),
    });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${await hook.text()}`);
  }

  // Per write: when its answer came (taken as its commit) and when it was sent.
  const committed = new Map();
  let failedWrites = 0;
  // At most 32 requests at once over kept-alive connections, as a proxy in front of the server would: a busy
  // server is otherwise handed a new connection per write until connects time out. A write's time starts when it
  // is due, whether or not it waited for a connection.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const createTag = (name) =>
    new Promise((resolve, reject) => {
      const request = http.request(`${admin}/tags/`, { method: 'POST', headers: session, agent }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          res.statusCode === 201 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')).tags[0].id) : reject(new Error(`${res.statusCode}`)),
        );
      });
      request.on('error', reject);
      request.end(JSON.stringify({ tags: [{ name }] }));
    });
  const sentAt = new Map();
  const writes = [];
  const total = rate * seconds;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sending = performance.now();
    writes.push(
      createTag(`Latency ${i}`).then(
        (id) => {
          committed.set(id, performance.now());
          sentAt.set(id, sending);
        },
        () => failedWrites++,
      ),
    );
  }
  await Promise.all(writes);
  const writesEnded = performance.now();
  const achieved = committed.size / ((writesEnded - started) / 1000);
  const hooks = [...received.values()];
  const arrived = () => hooks.reduce((sum, hook) => sum + hook.first.size, 0);
  const arrivedDuringWrites = hooks.reduce((sum, hook) => sum + [...hook.first.values()].filter((at) => at <= writesEnded).length, 0);
  const expected = committed.size * hookCount;
  const deadline = performance.now() + 120_000;
  while (arrived() < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const lastArrival = Math.max(started, ...hooks.flatMap((hook) => [...hook.first.values()]));

  const latencies = hooks.flatMap((hook) => [...committed].map(([id, at]) => (hook.first.get(id) ?? Infinity) - at)).sort((x, y) => x - y);
  const pct = (p) => (latencies.length === 0 ? '-' : latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(0));
  // Order, two ways. Causal: a write sent after another's answer came (so committed after it) must not arrive
  // before it. The outbox's (created_at, id): the order deliveries are claimed in; writes running at once may
  // commit in another order than their events' times, so some can arrive out of it without breaking a promise.
  const bySend = [...sentAt].sort((x, y) => x[1] - y[1]).map(([id]) => id);
  const causal = hooks.reduce((sum, hook) => {
    const position = new Map(hook.order.map((id, i) => [id, i]).reverse());
    let broken = 0;
    for (let j = 0; j < bySend.length; j++) {
      // A write answered more than a thousand writes earlier is never in doubt.
      for (let i = Math.max(0, j - 1000); i < j; i++) {
        const [earlier, later] = [bySend[i], bySend[j]];
        if (committed.get(earlier) < sentAt.get(later) && position.get(later) < position.get(earlier)) broken++;
      }
    }
    return sum + broken;
  }, 0);
  const outboxOrder = (await database.query(`select resource_id from outbox where event = 'tag.added' order by created_at, id`)).map((row) => row.resource_id);
  const outOfOutboxOrder = hooks.reduce((sum, hook) => {
    const firsts = hook.order.filter((id, i) => hook.order.indexOf(id) === i);
    return sum + firsts.filter((id, i) => id !== outboxOrder[i]).length;
  }, 0);
  console.log(
    `webhook latency (${args.engine}, ${total} writes at ${achieved.toFixed(0)}/s, ${hookCount} webhook(s)): ` +
      `p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${pct(1)} ms; ` +
      `${(arrivedDuringWrites / ((writesEnded - started) / 1000)).toFixed(0)} delivered/s while writing, ` +
      `${(arrived() / ((lastArrival - started) / 1000)).toFixed(0)} overall; ${arrived()}/${expected} arrived, ${duplicates} twice, ${failedWrites} writes failed; ` +
      `order: ${causal} causal inversions, ${outOfOutboxOrder} out of outbox order`,
  );
} finally {
  await server.stop();
  receiver.close();
  await database.drop();
}
