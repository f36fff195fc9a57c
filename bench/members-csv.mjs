// Members CSV: the time and the server's peak resident memory of importing 10,000 rows (a background job:
// POST /members/upload/, then the job polled until done), and the peak while exporting 10,000 and then 50,000
// members (GET /members/upload/, read as it streams). Usage:
//   npm run build && node bench/members-csv.mjs                      (SQLite in a temporary folder)
//   node bench/members-csv.mjs postgres://postgres@127.0.0.1:5432/postgres   (a fresh database on that server)
//   node bench/members-csv.mjs mysql://root@127.0.0.1:3306/
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminToken, keysFor, rssSamples, startServer } from './posts-common.mjs';
import { freshDatabase } from './databases.mjs';

const server = process.argv[2] ?? null;
const database = server ? await freshDatabase(server) : null;
// One site for the three servers below (SQLite: its file in this folder).
const contentDir = mkdtempSync(path.join(tmpdir(), 'quire-bench-members-'));
const env = { ...(database ? { DATABASE_URL: database.url } : {}), CONTENT_DIR: contentDir, JOBS_POLL_MS: '100' };
let quire;
let api;
let auth;
let peak = 0;

// Each figure from a server of its own, at rest first: memory a process took earlier is seldom given back,
// and would hide the export's own behind the import's.
const importing = await measure(() => importRows(0, 10_000));
const export10k = await measure(exportAll, () => importRows(10_000, 40_000));
const export50k = await measure(exportAll);

const engine = server ? new URL(server).protocol.replace(/:$/, '') : 'sqlite';
const mb = (value) => `${value.toFixed(1)} MB`;
const line = (name, run) => `${name} ${run.result.ms.toFixed(0)} ms, RSS ${mb(run.idle)} at rest, peak ${mb(run.peak)} (+${mb(run.peak - run.idle)})`;
console.log(
  `${engine}: ${line('import of 10,000 rows', importing)} (request ${importing.result.requestMs.toFixed(0)} ms); ` +
    `${line(`export of 10,000 members (${mb(export10k.result.bytes / 1024 / 1024)})`, export10k)}; ` +
    `${line(`export of 50,000 members (${mb(export50k.result.bytes / 1024 / 1024)})`, export50k)}`,
);
await database?.drop();

/** Starts a server on the site, lets it settle, runs `work` while sampling its memory, then `after`, and stops it. */
async function measure(work, after) {
  quire = await startServer({ env, nodeArgs: process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [] });
  const { adminKey } = await keysFor(quire.base);
  api = `${quire.base}/ghost/api/admin`;
  auth = () => ({ authorization: `Ghost ${adminToken(adminKey)}` });
  await new Promise((resolve) => setTimeout(resolve, 4000));
  const idle = Math.min(...(await rssSamples(quire, 10, 50)));
  peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, quire.rssMb())), 10);
  const result = await work();
  clearInterval(sampler);
  const top = peak;
  if (after) await after();
  await quire.stop();
  return { idle, peak: top, result };
}

/** Imports `count` new members with a name, a note, two labels; resolves when the background job is done. */
async function importRows(from, count) {
  const lines = ['email,name,note,labels'];
  for (let i = from; i < from + count; i++) lines.push(`member-${i}@example.com,Member ${i},"A note, with a comma","bench,batch-${Math.floor(i / 10_000)}"`);
  const form = new FormData();
  form.append('membersfile', new Blob([lines.join('\n')], { type: 'text/csv' }), 'members.csv');
  const started = performance.now();
  const res = await fetch(`${api}/members/upload/`, { method: 'POST', headers: auth(), body: form });
  if (res.status !== 202) throw new Error(`import answered ${res.status}: ${await res.text()}`);
  const requestMs = performance.now() - started;
  const job = res.headers.get('location');
  for (;;) {
    const state = (await (await fetch(job, { headers: auth() })).json()).jobs[0];
    if (state.status === 'failed') throw new Error(`import failed: ${state.error}`);
    if (state.status === 'done') {
      if (state.result.stats.imported !== count) throw new Error(`imported ${state.result.stats.imported} of ${count}`);
      return { ms: performance.now() - started, requestMs };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Reads the whole export as it streams. */
async function exportAll() {
  const started = performance.now();
  const res = await fetch(`${api}/members/upload/`, { headers: auth() });
  let bytes = 0;
  for await (const part of res.body) bytes += part.length;
  return { ms: performance.now() - started, bytes };
}
