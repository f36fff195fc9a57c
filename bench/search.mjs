// Quire's full-text search (`GET /ghost/api/content/search/`, FULL_TEXT_SEARCH=true) over 5,000 published
// posts of ~300 words, on the engine DATABASE_URL names (a fresh SQLite file when unset; for PostgreSQL or
// MySQL/MariaDB give an empty database). Checks that each query finds the posts it must, then measures it.
// Usage: npm run build && [DATABASE_URL=…] [PORT=…] node bench/search.mjs [seconds per query]
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { openSqliteFile } from '../scripts/sqlite-file.mjs';
import { keysFor, startServer } from './posts-common.mjs';

const seconds = Number(process.argv[2] ?? 10);
const POSTS = 5000;
const server = await startServer({ env: { FULL_TEXT_SEARCH: 'true', ...(process.env.PORT ? { PORT: process.env.PORT } : {}) } });
const { contentKey } = await keysFor(server.base);

async function database() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    return new Kysely({ dialect: new SqliteDialect({ database: openSqliteFile(server.sqliteFile) }) });
  }
  if (url.startsWith('postgres')) {
    const { default: pg } = await import('pg');
    return new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
  }
  const { createPool } = await import('mysql2');
  return new Kysely({ dialect: new MysqlDialect({ pool: createPool({ uri: url, connectionLimit: 2 }) }) });
}

const WORDS = (
  'garden river mountain city people story writer harbour forest island market winter summer bridge ' +
  'kitchen letter window station painter village engine meadow lantern orchard valley'
).split(' ');
const text = (i, n) => Array.from({ length: n }, (_, k) => WORDS[(i * 31 + k * 7 + ((i * k) % 5)) % WORDS.length]).join(' ');

// Seeded by SQL, as an import would: the search index is kept by the database's own triggers.
const db = await database();
// SQLite binds no Date (the service's own SQLite wrapper turns them into ISO text the same way).
const stamp = (date) => (process.env.DATABASE_URL ? date : date.toISOString());
const at = new Date('2026-01-01T00:00:00Z');
for (let start = 0; start < POSTS; start += 250) {
  const rows = Array.from({ length: Math.min(250, POSTS - start) }, (_, j) => {
    const i = start + j;
    return {
      id: (0x6b000000 + i).toString(16).padStart(24, '0'),
      uuid: randomUUID(),
      title: `${WORDS[i % WORDS.length]} notes ${i}`,
      slug: `search-bench-${i}`,
      // Post i alone holds the word `tokenI` (every 97th also a members-only post, whose body is not searchable).
      plaintext: `${text(i, 300)} token${i}`,
      custom_excerpt: i % 10 === 0 ? `Excerpt about the ${WORDS[(i + 3) % WORDS.length]}` : null,
      type: 'post',
      status: 'published',
      visibility: i % 97 === 0 ? 'members' : 'public',
      email_recipient_filter: 'all',
      created_at: stamp(at),
      created_by: '1',
      updated_at: stamp(at),
      updated_by: '1',
      published_at: stamp(new Date(at.getTime() + i * 60_000)),
      published_by: '1',
    };
  });
  await db.insertInto('posts').values(rows).execute();
}
// Fresh planner statistics, as autovacuum (PostgreSQL) or InnoDB's own sampling would soon have: without
// them PostgreSQL takes 5,000 bulk-inserted posts for one and walks them all for a word found once.
const url = process.env.DATABASE_URL ?? '';
if (url.startsWith('postgres')) await sql`analyze posts; analyze posts_search`.execute(db);
else if (url.startsWith('mysql')) await sql`analyze table posts, posts_search`.execute(db);
await db.destroy();

const search = (q) => `${server.base}/ghost/api/content/search/?key=${contentKey}&q=${encodeURIComponent(q)}`;
const expectations = [
  ['token1234', ['search-bench-1234'], 1],
  ['token2231 ', [], 0], // 2231 = 23 × 97: members only, body not searchable
  ['lantern notes 4522', ['search-bench-4522'], 1],
  ['lantern notes 4523', [], 0], // 4523's title says "orchard": every word must match
  ['notes 4510', ['search-bench-4510'], 1],
];
for (const [q, slugs, total] of expectations) {
  const body = await (await fetch(search(q))).json();
  const got = body.posts.map((post) => post.slug);
  if (body.meta.pagination.total !== total || JSON.stringify(got) !== JSON.stringify(slugs)) {
    throw new Error(`search "${q}": expected ${JSON.stringify(slugs)} (${total}), got ${JSON.stringify(got)} (${body.meta.pagination.total})`);
  }
}
const common = await (await fetch(search('garden'))).json();
console.log(
  `engine ${process.env.DATABASE_URL ? process.env.DATABASE_URL.split(':')[0] : 'sqlite'}: ${POSTS} posts; expected results found; "garden" matches ${common.meta.pagination.total}`,
);

for (const [title, q] of [
  ['one rare word', 'token4321'],
  ['one common word (15 of thousands, with highlights)', 'garden'],
  ['two words', 'river winter'],
  ['prefix as typed', 'lant'],
]) {
  const result = await autocannon({ url: search(q), connections: 8, duration: seconds });
  console.log(
    `${title}: ${result.requests.average.toFixed(0)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx + result.errors} failures`,
  );
}
await server.stop();
