// Shared by the benchmarks: a built server on a fresh SQLite database, set up with an owner and an
// integration, and the content a Ghost site of ~1,000-word posts would hold, seeded the same way into Quire
// or into Ghost (through the Admin API, or as a Ghost export through `POST /db/`). Run `npm run build` first.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Resident memory of a process in MB (Linux), or NaN once it has ended. */
export function rssMbOf(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** `count` readings of `server.rssMb()`, `everyMs` apart (the idle baseline before a run). */
export async function rssSamples(server, count, everyMs) {
  const out = [];
  for (let i = 0; i < count; i++) {
    out.push(server.rssMb());
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return out;
}

/** CPU seconds process `pid` has used (all its threads), or NaN once it has ended. */
export function cpuSecondsOf(pid) {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in ticks of 1/100 s.
  const fields = statFieldsOf(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / 100 : NaN;
}

/**
 * Minor page faults of process `pid` so far (all its threads: pages of fresh memory touched), or NaN once it has
 * ended. Unlike time, the count hardly varies from run to run or machine to machine; on a virtual machine where a
 * fault is dear, time follows it.
 */
export function pageFaultsOf(pid) {
  const fields = statFieldsOf(pid);
  return fields ? Number(fields[7]) : NaN; // minflt, the 10th field
}

/** `/proc/<pid>/stat` from its third field on, or null once the process has ended. */
function statFieldsOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return null;
  }
}

/**
 * Waits until process `pid` uses under 5 % of a core for two half-seconds in a row (background work after a
 * seed: rendering, indexes, caches), at most `timeoutMs`; resolves with the milliseconds waited.
 */
export async function waitUntilIdle(pid, { timeoutMs = 120_000 } = {}) {
  const started = performance.now();
  let quiet = 0;
  let before = cpuSecondsOf(pid);
  while (quiet < 2 && performance.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuSecondsOf(pid);
    quiet = now - before < 0.025 ? quiet + 1 : 0;
    before = now;
  }
  return performance.now() - started;
}

/** Polls `url` until it answers 2xx; resolves with the milliseconds since `since` (a performance.now()). */
export async function waitUntilAnswering(url, since = performance.now(), { pause = 10, timeoutMs = 300_000 } = {}) {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() - since > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * The settings `npm start` puts before `node` (glibc's malloc tunables, read only when a process starts): every
 * server here starts as `npm start` starts it, so the figures are what a user who runs it gets.
 */
const START_ENV = Object.fromEntries(
  [...JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts.start.matchAll(/(?:^|\s)(\w+)=(\S+)(?=\s)/g)].map(
    ([, name, value]) => [name, value],
  ),
);

/**
 * `nodeArgs` go to the server's node (e.g. `--cpu-prof`); `env` adds settings; `cpu` pins the server and its
 * threads to those cores (`taskset -c`); `dir` reuses a content folder (and its SQLite database) instead of a
 * new one; `main` serves another build. `startMs` is the time from spawning the process to its first answer.
 */
export async function startServer({
  nodeArgs = [],
  env: extraEnv = {},
  cpu,
  dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-')),
  main = 'dist/main.mjs',
} = {}) {
  // BENCH_PORT_BASE keeps the servers inside a range of 100 ports (a machine shared by several runs).
  const portBase = process.env.BENCH_PORT_BASE;
  const port = Number(extraEnv.PORT ?? (portBase ? Number(portBase) + Math.floor(Math.random() * 100) : 24000 + Math.floor(Math.random() * 1000)));
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    ...START_ENV,
    PORT: String(port),
    SITE_URL: `${base}/`,
    CONTENT_DIR: dir,
    LOG_LEVEL: 'warn',
    STAFF_DEVICE_VERIFICATION: 'false',
    ...extraEnv,
  };
  const command = [process.execPath, ...nodeArgs, main];
  // taskset execs node in its own process, so the pid below is the server's.
  const [file, ...args] = cpu === undefined ? command : ['taskset', '-c', String(cpu), ...command];
  const started = performance.now();
  const child = spawn(file, args, { env, stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit'] });
  // A bench that fails half-way must not leave its server running (and holding the caller's stderr open).
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const startMs = await waitUntilAnswering(`${base}/ghost/api/admin/site/`, started, { pause: 5 });
  return {
    base,
    dir,
    pid: child.pid,
    startMs,
    /** The database file when the server runs on its default SQLite database. */
    sqliteFile: path.join(dir, 'data', 'quire.db'),
    /** Resident memory of the server process in MB (Linux). */
    rssMb: () => rssMbOf(child.pid),
    stop: async () => {
      process.off('exit', kill);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** The owner every benchmark sets up (the same as `../shared/peer/ghost-peer.sh bootstrap`'s). */
export const OWNER = { name: 'Owner Person', email: 'owner@example.com', password: 'Sup3r-secret-pass!', blogTitle: 'Bench' };

/** Signs the owner in; returns the session cookie (Quire's and Ghost's alike). */
export async function ownerSession(base) {
  const login = await fetch(`${base}/ghost/api/admin/session/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ username: OWNER.email, password: OWNER.password }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  return login.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** Setup, owner session and an integration; returns its keys. */
export async function keysFor(base) {
  const api = `${base}/ghost/api/admin`;
  const json = { 'content-type': 'application/json', origin: base };
  await fetch(`${api}/authentication/setup/`, { method: 'POST', headers: json, body: JSON.stringify({ setup: [OWNER] }) });
  const cookie = await ownerSession(base);
  const res = await fetch(`${api}/integrations/?include=api_keys`, {
    method: 'POST',
    headers: { ...json, cookie },
    body: JSON.stringify({ integrations: [{ name: 'Bench' }] }),
  });
  const keys = (await res.json()).integrations[0].api_keys;
  return { adminKey: keys.find((k) => k.type === 'admin').secret, contentKey: keys.find((k) => k.type === 'content').secret };
}

export function adminToken(adminKey) {
  const [id, secret] = adminKey.split(':');
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const iat = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: 'HS256', typ: 'JWT', kid: id })}.${b64({ iat, exp: iat + 300, aud: '/admin/' })}`;
  return `${input}.${createHmac('sha256', Buffer.from(secret, 'hex')).update(input).digest('base64url')}`;
}

const WORDS = 'the quick brown fox jumps over lazy dog while writers publish stories about gardens mountains rivers cities and people'.split(' ');

/** A lexical document of about `words` words in paragraphs of 100, with a heading. */
export function lexicalPost(words = 1000, seed = 0) {
  const paragraph = (n) => ({
    children: [
      {
        detail: 0,
        format: 0,
        mode: 'normal',
        style: '',
        text: Array.from({ length: 100 }, (_, i) => WORDS[(n * 7 + i + seed) % WORDS.length]).join(' '),
        type: 'extended-text',
        version: 1,
      },
    ],
    direction: 'ltr',
    format: '',
    indent: 0,
    type: 'paragraph',
    version: 1,
  });
  const heading = {
    children: [{ detail: 0, format: 0, mode: 'normal', style: '', text: `Section ${seed}`, type: 'extended-text', version: 1 }],
    direction: 'ltr',
    format: '',
    indent: 0,
    type: 'extended-heading',
    version: 1,
    tag: 'h2',
  };
  return JSON.stringify({
    root: {
      children: [heading, ...Array.from({ length: Math.ceil(words / 100) }, (_, n) => paragraph(n))],
      direction: 'ltr',
      format: '',
      indent: 0,
      type: 'root',
      version: 1,
    },
  });
}
