// `limit=all` over 1,000, 5,000 and 10,000 posts (~1,000 words each, 3 tags, one author): the server's peak RSS
// while answering, time to first byte and total time. Each site is seeded through `quire import` of a generated
// Ghost export (seconds, not minutes), then served by the built server.
// Usage: npm run build && node bench/limit-all.mjs [POSTS=1000,5000,10000]
// QUIRE_MAIN=/other/checkout/dist/main.mjs serves another build (before/after comparisons); QUERY replaces the
// query string (default `include=tags,authors`).
import { spawn, execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';

const root = path.dirname(new URL(import.meta.url).pathname);
const sizes = (process.argv[2] ?? '1000,5000,10000').split(',').map(Number);
const main = process.env.QUIRE_MAIN ?? path.join(root, '../dist/main.mjs');
const cliFile = path.join(path.dirname(main), 'cli.mjs');
const query = process.env.QUERY ?? 'include=tags,authors';
const fixture = JSON.parse(readFileSync(path.join(root, '../test/fixtures/db/peer-export-members.json'), 'utf8')).db[0].data;

const hex = (n, width = 24) => n.toString(16).padStart(width, '0');
const words = 'the quick brown fox jumps over a lazy dog while writers publish stories about gardens mountains rivers and cities'.split(' ');
const paragraph = (seed) => Array.from({ length: 100 }, (_, i) => words[(seed * 7 + i * 13) % words.length]).join(' ');

/** A Ghost export of `count` published posts, written row by row. */
async function generate(file, count) {
  const out = createWriteStream(file);
  const write = (text) => (out.write(text) ? undefined : once(out, 'drain'));
  const owner = fixture.users.find((user) => user.id === '1');
  const base = { ...fixture.posts.find((post) => post.slug === 'published-with-cards'), status: 'published', type: 'post' };
  const tagCount = 50;
  await write(`{"db":[{"meta":{"exported_on":${Date.now()},"version":"5.130.6"},"data":{`);
  await write(
    `"users":${JSON.stringify([owner])},"roles":${JSON.stringify(fixture.roles)},"roles_users":${JSON.stringify(fixture.roles_users.filter((r) => r.user_id === '1'))},`,
  );
  await write(
    `"tags":${JSON.stringify(Array.from({ length: tagCount }, (_, i) => ({ ...fixture.tags[0], id: hex(i + 1), name: `Topic ${i}`, slug: `topic-${i}` })))},`,
  );
  await write('"posts":[');
  for (let i = 0; i < count; i++) {
    const paragraphs = Array.from({ length: 10 }, (_, p) => paragraph(i + p));
    const lexical = JSON.stringify({
      root: {
        children: paragraphs.map((text) => ({
          children: [{ detail: 0, format: 0, mode: 'normal', style: '', text, type: 'extended-text', version: 1 }],
          direction: 'ltr',
          format: '',
          indent: 0,
          type: 'paragraph',
          version: 1,
        })),
        direction: 'ltr',
        format: '',
        indent: 0,
        type: 'root',
        version: 1,
      },
    });
    const published = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
    const post = {
      ...base,
      id: hex(100000 + i),
      uuid: `00000000-0000-4000-8000-${hex(i, 12)}`,
      slug: `post-${i}`,
      title: `Post ${i}`,
      lexical,
      mobiledoc: null,
      html: paragraphs.map((p) => `<p>${p}</p>`).join('\n'),
      plaintext: paragraphs.join('\n\n'),
      published_at: published,
      created_at: published,
      updated_at: published,
    };
    await write(`${i ? ',' : ''}${JSON.stringify(post)}`);
  }
  await write('],"posts_tags":[');
  for (let i = 0; i < count; i++)
    for (let k = 0; k < 3; k++)
      await write(
        `${i || k ? ',' : ''}${JSON.stringify({ id: hex(300000 + i * 3 + k), post_id: hex(100000 + i), tag_id: hex(((i + k * 17) % tagCount) + 1), sort_order: k })}`,
      );
  await write('],"posts_authors":[');
  for (let i = 0; i < count; i++)
    await write(`${i ? ',' : ''}${JSON.stringify({ id: hex(600000 + i), post_id: hex(100000 + i), author_id: '1', sort_order: 0 })}`);
  await write(']}}]}');
  out.end();
  await once(out, 'finish');
}

function cli(args, env) {
  return execFileSync(process.execPath, [cliFile, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

async function serve(env, port) {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn', JOBS_ENABLED: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ghost/api/admin/site/`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return child;
}

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

/** One GET, timed: first body byte and last, the server's RSS sampled every 5 ms meanwhile. */
function timedGet(url, pid) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let peak = rssKb(pid);
    const timer = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 5);
    let firstByte = null;
    let bytes = 0;
    request(url, (res) => {
      res.on('data', (chunk) => {
        firstByte ??= performance.now() - started;
        bytes += chunk.length;
      });
      res.on('end', () => {
        clearInterval(timer);
        resolve({
          status: res.statusCode,
          chunked: res.headers['transfer-encoding'] === 'chunked',
          firstByte,
          total: performance.now() - started,
          bytes,
          peakMb: peak / 1024,
        });
      });
    })
      .on('error', reject)
      .end();
  });
}

console.log(
  `server: ${main}; GET /posts/?limit=all&${query}; load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
for (const count of sizes) {
  const folder = mkdtempSync(path.join(tmpdir(), 'quire-bench-all-'));
  const port = 28000 + Math.floor(Math.random() * 900);
  const env = {
    DATABASE_URL: `sqlite:${path.join(folder, 'quire.db')}`,
    CONTENT_DIR: folder,
    SITE_URL: `http://127.0.0.1:${port}/`,
    STAFF_DEVICE_VERIFICATION: 'false',
  };
  await generate(path.join(folder, 'site.json'), count);
  const keys = cli(
    ['setup', '--email', 'owner@example.com', '--password', 'Bench-pass-2026!', '--name', 'Owner', '--title', 'Bench', '--integration', 'Bench'],
    env,
  );
  const contentKey = /CONTENT_KEY=(\w+)/.exec(keys)[1];
  cli(['import', '--file', path.join(folder, 'site.json')], env);
  const server = await serve(env, port);
  const url = `http://127.0.0.1:${port}/ghost/api/content/posts/?limit=all&${query}&key=${contentKey}`;
  // Worker threads and the renderer warm up after the first answers: idle RSS is read once they have.
  await timedGet(url.replace('limit=all', 'limit=15'), server.pid);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = rssKb(server.pid) / 1024;
  const runs = [];
  for (let i = 0; i < 4; i++) runs.push(await timedGet(url, server.pid));
  const last = runs.at(-1);
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const warm = runs.slice(1);
  console.log(
    `${String(count).padStart(6)} posts: ${(last.bytes / 1024 / 1024).toFixed(1)} MB ${last.chunked ? 'chunked' : 'whole'} (status ${last.status}); ` +
      `first byte ${median(warm.map((r) => r.firstByte)).toFixed(0)} ms, total ${median(warm.map((r) => r.total)).toFixed(0)} ms (median of 3 after one warm-up); ` +
      `RSS idle ${idle.toFixed(0)} MB, peak while answering ${Math.max(...runs.map((r) => r.peakMb)).toFixed(0)} MB`,
  );
  server.kill('SIGTERM');
  await once(server, 'exit');
  execFileSync('rm', ['-rf', folder]);
}
