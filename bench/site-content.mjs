// The site every comparison reads: 20 tags, N published posts of ~1,000 words (lexical) with 3 of the tags
// each, a few pages, all by the owner. Seeded through the Admin API, or as a Ghost export through
// `POST /db/` (much faster for 10,000 posts; both servers then import the same file).
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, keysFor, lexicalPost, ownerSession, startServer } from './posts-common.mjs';
import { unzipFiles } from './unzip.mjs';

export const TAG_COUNT = 20;
export const PAGE_COUNT = 5;
const tagOf = (t) => ({ name: `Topic ${t}`, slug: `topic-${t}` });
/** Three distinct tags of the 20 for post i. */
const tagNumbersOf = (i) => [i % TAG_COUNT, (i + 7) % TAG_COUNT, (i + 13) % TAG_COUNT];
const postOf = (i) => ({ title: `Bench post ${i}`, slug: `bench-post-${i}`, lexical: lexicalPost(1000, i), status: 'published' });
const pageOf = (i) => ({ title: `Bench page ${i}`, slug: `bench-page-${i}`, lexical: lexicalPost(1000, i), status: 'published' });

/** Admin API calls with an integration's key; a failed call throws with the answer. */
export function adminApi(base, adminKey) {
  return async (method, url, body) => {
    const res = await fetch(`${base}/ghost/api/admin${url}`, {
      method,
      headers: { authorization: `Ghost ${adminToken(adminKey)}`, 'content-type': 'application/json', 'accept-version': 'v5.130' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : null;
  };
}

/** Deletes every post, page and tag (a fresh Ghost site ships a post, a page and a tag). */
export async function clearSite(call) {
  for (const resource of ['posts', 'pages', 'tags']) {
    const { [resource]: rows } = await call('GET', `/${resource}/?limit=all&fields=id`);
    for (const { id } of rows) await call('DELETE', `/${resource}/${id}/`);
  }
}

/** The tags, then the posts and pages, one request each, as a writer would. */
export async function seedThroughApi(call, posts, { log = () => {} } = {}) {
  const tags = [];
  for (let t = 0; t < TAG_COUNT; t++) tags.push((await call('POST', '/tags/', { tags: [tagOf(t)] })).tags[0]);
  for (let i = 0; i < posts; i++) {
    const post = { ...postOf(i), tags: tagNumbersOf(i).map((t) => ({ id: tags[t].id, name: tags[t].name, slug: tags[t].slug })) };
    await call('POST', '/posts/', { posts: [post] });
    if ((i + 1) % 1000 === 0) log(`  ${i + 1} posts`);
  }
  for (let i = 0; i < PAGE_COUNT; i++) await call('POST', '/pages/', { pages: [pageOf(i)] });
}

const fixture = () =>
  JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures/db/peer-export-members.json'), 'utf8')).db[0].data;
const hex = (n) => n.toString(16).padStart(24, '0');
const uuid = (n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const stamp = (minutes) => new Date(Date.UTC(2026, 0, 1) + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');

/**
 * Writes the same site as a Ghost 5.130.6 export (the owner of test/fixtures/db/, whom both servers match to
 * their own owner by e-mail). Posts carry lexical only: each server renders html and plaintext itself.
 */
export async function writeGhostExport(file, posts) {
  const data = fixture();
  const owner = data.users.find((user) => user.id === '1');
  const template = data.posts.find((post) => post.slug === 'published-with-cards');
  const out = createWriteStream(file);
  const write = (text) => (out.write(text) ? undefined : once(out, 'drain'));
  const row = (n, content, type) => ({
    ...template,
    ...content,
    id: hex(n),
    uuid: uuid(n),
    comment_id: hex(n),
    type,
    mobiledoc: null,
    html: null,
    plaintext: null,
    featured: 0,
    custom_excerpt: null,
    created_at: stamp(n),
    updated_at: stamp(n),
    published_at: stamp(n),
  });
  await write(`{"db":[{"meta":{"exported_on":${Date.now()},"version":"5.130.6"},"data":{`);
  await write(`"users":${JSON.stringify([owner])},"roles":${JSON.stringify(data.roles)},`);
  await write(`"roles_users":${JSON.stringify(data.roles_users.filter((link) => link.user_id === '1'))},`);
  const tags = Array.from({ length: TAG_COUNT }, (_, t) => ({ ...data.tags[0], ...tagOf(t), id: hex(1 + t), description: null }));
  await write(`"tags":${JSON.stringify(tags)},"posts":[`);
  const rows = posts + PAGE_COUNT;
  // Post ids from 1,000,000; pages after the posts. Ghost and Quire both list newest first, so post N-1 leads.
  for (let i = 0; i < rows; i++) {
    const content = i < posts ? row(1_000_000 + i, postOf(i), 'post') : row(1_000_000 + i, pageOf(i - posts), 'page');
    await write(`${i ? ',' : ''}${JSON.stringify(content)}`);
  }
  await write('],"posts_tags":[');
  for (let i = 0; i < posts; i++) {
    const links = tagNumbersOf(i).map((t, k) => ({ id: hex(3_000_000 + i * 3 + k), post_id: hex(1_000_000 + i), tag_id: hex(1 + t), sort_order: k }));
    await write(`${i ? ',' : ''}${links.map((link) => JSON.stringify(link)).join(',')}`);
  }
  await write('],"posts_authors":[');
  for (let i = 0; i < rows; i++) {
    await write(`${i ? ',' : ''}${JSON.stringify({ id: hex(6_000_000 + i), post_id: hex(1_000_000 + i), author_id: '1', sort_order: 0 })}`);
  }
  await write(']}}]}');
  out.end();
  await once(out, 'finish');
}

/** Posts the export to `POST /db/` as the owner, then waits until the Content API lists every post. */
export async function importExport(base, contentKey, file, posts, { timeoutMs = 600_000 } = {}) {
  const cookie = await ownerSession(base);
  const form = new FormData();
  form.append('importfile', new Blob([readFileSync(file)], { type: 'application/json' }), 'bench.json');
  const res = await fetch(`${base}/ghost/api/admin/db/`, { method: 'POST', headers: { cookie, origin: base }, body: form });
  if (!res.ok) throw new Error(`POST /db/ → ${res.status} ${(await res.text()).slice(0, 500)}`);
  const started = performance.now();
  // A large import runs in the background on both servers, in one transaction: the total jumps when it commits.
  for (;;) {
    const count = await fetch(`${base}/ghost/api/content/posts/?limit=1&fields=id&key=${contentKey}`).catch(() => null);
    if (count?.ok && (await count.json()).meta.pagination.total >= posts) return;
    if (performance.now() - started > timeoutMs) throw new Error(`the import did not finish within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const SOURCE_ZIP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/themes/source.zip');

/**
 * A built Quire server (`options` as for startServer) with `posts` seeded through the Admin API and Source
 * active, its files written where a theme upload puts them (`themes/source/`); stopped again if the set-up fails.
 */
export async function startSourceSite(posts, options) {
  const server = await startServer(options);
  try {
    const { adminKey } = await keysFor(server.base);
    const call = adminApi(server.base, adminKey);
    await seedThroughApi(call, posts);
    for (const [file, data] of await unzipFiles(SOURCE_ZIP)) {
      const target = path.join(server.dir, 'themes', 'source', file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, data);
    }
    await call('PUT', '/themes/source/activate/');
    return server;
  } catch (err) {
    await server.stop();
    throw err;
  }
}
