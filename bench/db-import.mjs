// Import of a large Ghost export (issue 15: a 50 MB export imports with peak RSS under 300 MB).
// Builds an export of about SIZE MB from the peer fixture's shapes (posts with lexical, html and plaintext, tags,
// authors, members with labels and newsletters), then imports it with `quire import` into a fresh SQLite site in a
// child process and reports wall time and the child's peak RSS (/proc VmHWM, worker threads included).
// With PEER=http://127.0.0.1:PORT (a bootstrapped ghost-peer.sh site) the same file is also posted to Ghost's
// POST /db/ and timed until Ghost's background import has written every post.
// Usage: npm run build && node bench/db-import.mjs [SIZE_MB=50]
import { spawn, execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { lexicalDocument, lexicalParagraph } from '../test/fixtures/lexical.mjs';

const targetMb = Number(process.argv[2] ?? 50);
const root = path.dirname(new URL(import.meta.url).pathname);
const fixture = JSON.parse(readFileSync(path.join(root, '../test/fixtures/db/peer-export-members.json'), 'utf8')).db[0].data;
const folder = mkdtempSync(path.join(tmpdir(), 'quire-bench-import-'));
const file = path.join(folder, 'large.json');

const hex = (n, width = 24) => n.toString(16).padStart(width, '0');
const words = 'the quick brown fox jumps over a lazy dog while publishing many long articles about distributed systems'.split(' ');
const paragraph = (seed) => Array.from({ length: 60 }, (_, i) => words[(seed * 7 + i * 13) % words.length]).join(' ');

/** Writes the export row by row, so the generator itself stays small. */
async function generate() {
  const out = createWriteStream(file);
  const write = (text) => (out.write(text) ? undefined : once(out, 'drain'));
  const owner = fixture.users.find((user) => user.id === '1');
  const base = { ...fixture.posts.find((post) => post.slug === 'published-with-cards') };
  const tagCount = 200;
  await write(`{"db":[{"meta":{"exported_on":${Date.now()},"version":"5.130.6"},"data":{`);
  await write(
    `"users":${JSON.stringify([owner])},"roles":${JSON.stringify(fixture.roles)},"roles_users":${JSON.stringify(fixture.roles_users.filter((r) => r.user_id === '1'))},`,
  );
  await write(
    `"tags":${JSON.stringify(Array.from({ length: tagCount }, (_, i) => ({ ...fixture.tags[0], id: hex(i + 1), name: `Topic ${i}`, slug: `topic-${i}` })))},`,
  );
  await write(`"newsletters":${JSON.stringify(fixture.newsletters)},"labels":${JSON.stringify(fixture.labels)},`);
  const postBytes = 20_000;
  const posts = Math.round((targetMb * 0.8 * 1024 * 1024) / postBytes);
  await write('"posts":[');
  for (let i = 0; i < posts; i++) {
    const paragraphs = Array.from({ length: 12 }, (_, p) => paragraph(i + p));
    const lexical = lexicalDocument(...paragraphs.map(lexicalParagraph));
    const post = {
      ...base,
      id: hex(100000 + i),
      uuid: `00000000-0000-4000-8000-${hex(i, 12)}`,
      slug: `post-${i}`,
      title: `Post ${i}`,
      lexical,
      html: paragraphs.map((p) => `<p>${p}</p>`).join(''),
      plaintext: paragraphs.join('\n\n'),
    };
    await write(`${i ? ',' : ''}${JSON.stringify(post)}`);
  }
  await write('],"posts_tags":[');
  for (let i = 0; i < posts; i++) {
    for (let k = 0; k < 3; k++)
      await write(
        `${i || k ? ',' : ''}${JSON.stringify({ id: hex(300000 + i * 3 + k), post_id: hex(100000 + i), tag_id: hex(((i + k * 17) % tagCount) + 1), sort_order: k })}`,
      );
  }
  await write('],"posts_authors":[');
  for (let i = 0; i < posts; i++)
    await write(`${i ? ',' : ''}${JSON.stringify({ id: hex(600000 + i), post_id: hex(100000 + i), author_id: '1', sort_order: 0 })}`);
  const members = Math.round((targetMb * 0.2 * 1024 * 1024) / 450);
  const template = fixture.members[0];
  await write('],"members":[');
  for (let i = 0; i < members; i++)
    await write(
      `${i ? ',' : ''}${JSON.stringify({ ...template, id: hex(900000 + i), uuid: `10000000-0000-4000-8000-${hex(i, 12)}`, email: `reader${i}@example.com`, name: `Reader ${i}` })}`,
    );
  await write('],"members_labels":[');
  for (let i = 0; i < members; i++)
    await write(
      `${i ? ',' : ''}${JSON.stringify({ id: hex(2000000 + i), member_id: hex(900000 + i), label_id: fixture.labels[i % fixture.labels.length].id, sort_order: 0 })}`,
    );
  await write('],"members_newsletters":[');
  for (let i = 0; i < members; i++)
    await write(
      `${i ? ',' : ''}${JSON.stringify({ id: hex(3000000 + i), member_id: hex(900000 + i), newsletter_id: fixture.newsletters[i % fixture.newsletters.length].id })}`,
    );
  await write(']}}]}');
  out.end();
  await once(out, 'finish');
  return { posts, members };
}

/** Runs the CLI, sampling its peak RSS from /proc while it runs (VmHWM: the high-water mark of the process). */
async function cli(args, env) {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, '../dist/cli.mjs'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let peakKb = 0;
  const sample = () => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // The process has ended.
    }
  };
  const timer = setInterval(sample, 50);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'exit');
  clearInterval(timer);
  if (code !== 0) throw new Error(`quire ${args.join(' ')} exited with ${code}`);
  return { seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, output };
}

const { posts, members } = await generate();
console.log(`export: ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB, ${posts} posts, ${members} members`);
const env = { DATABASE_URL: `sqlite:${path.join(folder, 'quire.db')}`, CONTENT_DIR: folder, SITE_URL: 'http://127.0.0.1:4400/' };
await cli(['setup', '--password', 'Bench-pass-2026!'], env);
const result = await cli(['import', '--file', file], env);
console.log(`quire import: ${result.seconds.toFixed(1)} s, peak RSS ${result.peakMb.toFixed(0)} MB`);
console.log(
  result.output
    .split('\n')
    .filter((line) => /posts:|members:/.test(line))
    .join('\n'),
);
const exported = await cli(['export', '--file', path.join(folder, 'again.json')], env);
console.log(`quire export of the imported site: ${exported.seconds.toFixed(1)} s, peak RSS ${exported.peakMb.toFixed(0)} MB`);

if (process.env.PEER) {
  const base = process.env.PEER;
  const api = `${base}/ghost/api/admin`;
  const login = await fetch(`${api}/session/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ username: 'owner@example.com', password: 'Sup3r-secret-pass!' }),
  });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const headers = { cookie, origin: base };
  // Ghost's SQLite pool is held by the import's transaction: a count that times out is asked again.
  const count = async () => {
    const res = await fetch(`${api}/posts/?limit=1&fields=id&filter=slug:~'post-'`, { headers });
    return res.ok ? (await res.json()).meta.pagination.total : -1;
  };
  const before = await count();
  const started = performance.now();
  const form = new FormData();
  form.append('importfile', new Blob([readFileSync(file)], { type: 'application/json' }), 'large.json');
  const res = await fetch(`${api}/db/`, { method: 'POST', headers, body: form });
  console.log(`Ghost POST /db/: ${res.status} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  while ((await count()) < before + posts) await new Promise((resolve) => setTimeout(resolve, 1000));
  const pid = readFileSync(path.join(process.env.HOME, '.cache/ghost-peer/run', new URL(base).port, 'pid'), 'utf8').trim();
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  console.log(`Ghost import (posts written): ${((performance.now() - started) / 1000).toFixed(1)} s, Ghost's peak RSS ${hwm.toFixed(0)} MB`);
}
execFileSync('rm', ['-rf', folder]);
