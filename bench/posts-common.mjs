// Shared by the posts benchmarks: a built server on a fresh SQLite database, set up with an owner and an
// integration, plus the content a Ghost site of ~1,000-word posts would hold. Run `npm run build` first.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** `nodeArgs` go to the server's node (e.g. `--cpu-prof`); `env` adds settings. */
export async function startServer({ nodeArgs = [], env: extraEnv = {} } = {}) {
  const port = Number(extraEnv.PORT ?? 24000 + Math.floor(Math.random() * 1000));
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-'));
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    SITE_URL: `${base}/`,
    CONTENT_DIR: dir,
    LOG_LEVEL: 'warn',
    STAFF_DEVICE_VERIFICATION: 'false',
    ...extraEnv,
  };
  const child = spawn(process.execPath, [...nodeArgs, 'dist/main.mjs'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  // A bench that fails half-way must not leave its server running (and holding the caller's stderr open).
  process.once('exit', () => child.kill('SIGKILL'));
  for (;;) {
    try {
      if ((await fetch(`${base}/ghost/api/admin/site/`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return {
    base,
    /** The database file when the server runs on its default SQLite database. */
    sqliteFile: path.join(dir, 'data', 'quire.db'),
    /** Resident memory of the server process in MB (Linux). */
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** Setup, owner session and an integration; returns its keys. */
export async function keysFor(base) {
  const api = `${base}/ghost/api/admin`;
  const json = { 'content-type': 'application/json', origin: base };
  const owner = { name: 'Owner Person', email: 'owner@example.com', password: 'Sup3r-secret-pass!', blogTitle: 'Bench' };
  await fetch(`${api}/authentication/setup/`, { method: 'POST', headers: json, body: JSON.stringify({ setup: [owner] }) });
  const login = await fetch(`${api}/session/`, { method: 'POST', headers: json, body: JSON.stringify({ username: owner.email, password: owner.password }) });
  const cookie = login.headers.get('set-cookie').split(';')[0];
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
