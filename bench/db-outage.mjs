/**
 * Process deaths when the PostgreSQL server goes away under write load (issue 22). Starts a built Quire
 * (`--dist DIR`, default ./dist) on a PostgreSQL cluster of your own — never a shared server: this script
 * stops and starts it — and, while eight writers create posts, stops the cluster (`pg_ctl stop -m MODE`),
 * waits, starts it again, `--cycles` times. After each cycle it counts whether the Quire process died (then
 * restarts it), and waits for /_quire/ready to be 200 again.
 *
 *   node bench/db-outage.mjs --pgdata /tmp/faults-pg --pgport 5499 --port 3101 [--dist DIR] [--cycles 20] [--mode fast|immediate]
 *
 * Run as root: pg_ctl runs as the postgres user through su.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { OWNER, ownerSession } from './posts-common.mjs';

const { values } = parseArgs({
  options: {
    pgdata: { type: 'string' },
    pgport: { type: 'string', default: '5499' },
    port: { type: 'string', default: '3101' },
    dist: { type: 'string', default: 'dist' },
    cycles: { type: 'string', default: '20' },
    mode: { type: 'string', default: 'fast' },
    'down-ms': { type: 'string', default: '1500' },
  },
});
if (!values.pgdata) throw new Error('--pgdata: the data folder of a PostgreSQL cluster of your own');
const PG_CTL = '/usr/lib/postgresql/15/bin/pg_ctl';
const pgCtl = (...args) => execFileSync('su', ['postgres', '-c', [PG_CTL, '-D', values.pgdata, ...args].join(' ')], { stdio: 'ignore' });
const pgStart = () => pgCtl('-o', `"-p ${values.pgport} -k /tmp -c listen_addresses=127.0.0.1"`, '-l', `${values.pgdata}/pg.log`, '-w', 'start');
const pgStop = () => pgCtl('-m', values.mode, '-w', 'stop');

const server = `postgres://postgres@127.0.0.1:${values.pgport}`;
const database = `quire_outage_${process.pid}`;
const admin = new pg.Client({ connectionString: `${server}/postgres` });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${database}`);
await admin.query(`CREATE DATABASE ${database}`);
await admin.end();

const base = `http://127.0.0.1:${values.port}`;
const contentDir = mkdtempSync(path.join(tmpdir(), 'quire-outage-'));
let child = null;
let output = '';
function startQuire() {
  child = spawn(process.execPath, [path.join(values.dist, 'main.mjs')], {
    env: {
      ...process.env,
      PORT: values.port,
      HOST: '127.0.0.1',
      DATABASE_URL: `${server}/${database}`,
      CONTENT_DIR: contentDir,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      STAFF_DEVICE_VERIFICATION: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
}
const alive = () => child.exitCode === null && child.signalCode === null;
async function untilReady(ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive()) return false;
    const ok = await fetch(`${base}/_quire/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

startQuire();
if (!(await untilReady(30_000))) throw new Error(`Quire did not start:\n${output}`);
await fetch(`${base}/ghost/api/admin/authentication/setup/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ setup: [OWNER] }),
});
const cookie = await ownerSession(base);

let running = true;
const counts = { ok: 0, failed: 0, refused: 0 };
let n = 0;
const writers = Array.from({ length: 8 }, async () => {
  while (running) {
    const res = await fetch(`${base}/ghost/api/admin/posts/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, cookie },
      body: JSON.stringify({ posts: [{ title: `Outage ${n++}`, tags: [{ name: 'outage' }] }] }),
      signal: AbortSignal.timeout(30_000),
    }).catch(() => null);
    if (!res) {
      counts.refused++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } else {
      await res.arrayBuffer();
      if (res.status === 201) counts.ok++;
      else counts.failed++;
    }
  }
});

let deaths = 0;
const recoveries = [];
for (let cycle = 1; cycle <= Number(values.cycles); cycle++) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  pgStop();
  await new Promise((resolve) => setTimeout(resolve, Number(values['down-ms'])));
  const upAt = Date.now();
  pgStart();
  await new Promise((resolve) => setTimeout(resolve, 300));
  if (!alive()) {
    deaths++;
    console.log(`cycle ${cycle}: Quire died (${child.exitCode ?? child.signalCode}); restarting`);
    startQuire();
  }
  const ready = await untilReady(30_000);
  recoveries.push(Date.now() - upAt);
  console.log(`cycle ${cycle}: ${ready ? 'ready' : 'NOT ready'} ${Date.now() - upAt} ms after the database started`);
}
running = false;
await Promise.all(writers);
child.kill('SIGTERM');
console.log(
  JSON.stringify({ dist: values.dist, cycles: Number(values.cycles), mode: values.mode, deaths, writes: counts, recoveryMsMax: Math.max(...recoveries) }),
);
const died = output.split('\n').find((line) => /Uncaught|unhandled 'error'|terminating connection/i.test(line));
if (died) console.log('first connection-loss line:', died.slice(0, 300));
rmSync(contentDir, { recursive: true, force: true });
