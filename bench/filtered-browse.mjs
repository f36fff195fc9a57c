// Filtered browse throughput: Content API posts with a tag filter, tags and authors included.
//
//   npm run build && node bench/filtered-browse.mjs                  # starts Quire (SQLite, temp dir) and benches it
//   node bench/filtered-browse.mjs --url http://127.0.0.1:2374 \
//        --admin-key <id:secret> --content-key <key>                 # benches a running server (e.g. Ghost 5.130.6)
//
// Options: --posts 150 (created through the Admin API, ~1,000 words and 3 of 10 tags each), --connections 16,
// --duration 10 (seconds), --path (the request, default below). Same data and request on both servers, so the
// figures compare. Not a test: nothing is asserted.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split(/\s*--/)
    .filter(Boolean)
    .map((pair) => {
      const [key, ...value] = pair.split(/\s+/);
      return [key, value.join(' ')];
    }),
);
const POSTS = Number(args.posts ?? 150);
const CONNECTIONS = Number(args.connections ?? 16);
const DURATION = Number(args.duration ?? 10);
const REQUEST = args.path ?? '/ghost/api/content/posts/?filter=tag:tag-3%2Bfeatured:false&include=tags,authors&limit=15';

function adminToken(adminKey) {
  const [id, secret] = adminKey.split(':');
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const head = b64({ alg: 'HS256', typ: 'JWT', kid: id });
  const body = b64({ iat: now, exp: now + 300, aud: '/admin/' });
  return `${head}.${body}.${createHmac('sha256', Buffer.from(secret, 'hex')).update(`${head}.${body}`).digest('base64url')}`;
}

async function startQuire() {
  const port = 24000 + Math.floor(Math.random() * 1000);
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-'));
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    SITE_URL: `${base}/`,
    DATABASE_URL: `sqlite:${path.join(dir, 'quire.db')}`,
    CONTENT_DIR: dir,
    LOG_LEVEL: 'warn',
    STAFF_DEVICE_VERIFICATION: 'false',
  };
  const child = spawn(process.execPath, ['dist/main.mjs'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    try {
      if ((await fetch(`${base}/ghost/api/admin/site/`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const json = { 'content-type': 'application/json', origin: base };
  await fetch(`${base}/ghost/api/admin/authentication/setup/`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ setup: [{ name: 'Bench Owner', email: 'owner@example.com', password: 'Sup3r-secret-pass!', blogTitle: 'Bench' }] }),
  });
  const login = await fetch(`${base}/ghost/api/admin/session/`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username: 'owner@example.com', password: 'Sup3r-secret-pass!' }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const res = await fetch(`${base}/ghost/api/admin/integrations/?include=api_keys`, {
    method: 'POST',
    headers: { ...json, cookie },
    body: JSON.stringify({ integrations: [{ name: 'Bench' }] }),
  });
  const keys = (await res.json()).integrations[0].api_keys;
  return {
    base,
    child,
    adminKey: keys.find((k) => k.type === 'admin').secret,
    contentKey: keys.find((k) => k.type === 'content').secret,
  };
}

const WORDS = 'the quick brown fox jumps over a lazy dog while reading long essays about gardens rivers and cities'.split(' ');
function lexical(n) {
  const text = Array.from({ length: 1000 }, (_, i) => WORDS[(i * 7 + n) % WORDS.length]).join(' ');
  const paragraph = (t) => ({
    children: [{ detail: 0, format: 0, mode: 'normal', style: '', text: t, type: 'extended-text', version: 1 }],
    direction: 'ltr',
    format: '',
    indent: 0,
    type: 'paragraph',
    version: 1,
  });
  return JSON.stringify({
    root: { children: [paragraph(text.slice(0, 3000)), paragraph(text.slice(3000))], direction: 'ltr', format: '', indent: 0, type: 'root', version: 1 },
  });
}

async function seed(base, adminKey) {
  for (let i = 0; i < POSTS; i++) {
    const tags = [0, 1, 2].map((k) => ({ name: `Tag ${(i + k * 3) % 10}`, slug: `tag-${(i + k * 3) % 10}` }));
    const res = await fetch(`${base}/ghost/api/admin/posts/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Ghost ${adminToken(adminKey)}` },
      body: JSON.stringify({ posts: [{ title: `Bench post ${i}`, lexical: lexical(i), status: 'published', featured: i % 5 === 0, tags }] }),
    });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  }
}

const target = args.url ? { base: args.url, adminKey: args['admin-key'], contentKey: args['content-key'], child: null } : await startQuire();
try {
  await seed(target.base, target.adminKey);
  const url = `${target.base}${REQUEST}${REQUEST.includes('?') ? '&' : '?'}key=${target.contentKey}`;
  const check = await fetch(url);
  const body = await check.json();
  if (!check.ok) throw new Error(`request failed: ${check.status} ${JSON.stringify(body)}`);
  console.log(`GET ${REQUEST} → ${body.posts.length} posts of ${body.meta.pagination.total}`);
  await autocannon({ url, connections: CONNECTIONS, duration: 2 }); // warm-up
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  console.log(
    JSON.stringify(
      {
        server: args.url ? args.url : 'quire (sqlite)',
        posts: POSTS,
        connections: CONNECTIONS,
        duration_s: DURATION,
        req_per_s: Math.round(result.requests.average),
        latency_ms: { p50: result.latency.p50, p99: result.latency.p99 },
        non_2xx: result.non2xx,
        errors: result.errors,
      },
      null,
      1,
    ),
  );
} finally {
  target.child?.kill('SIGTERM');
}
