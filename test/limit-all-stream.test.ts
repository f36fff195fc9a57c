import { beforeAll, describe, expect, it } from 'vitest';
import { STREAM_PAGE_ROWS } from '../src/http/browse-route.js';
import { CONTENT, ghostError } from './support.js';
import { lexicalOf, makePage, makePost, makeStaff, makeTag } from './factories.js';
import { useTestSite } from './test-site.js';

/**
 * `limit=all` is streamed page by page (STREAM_PAGE_ROWS rows at a time); its answer must be the very
 * answer of the same request with a numeric limit covering every row, in the same bytes, with
 * `meta.pagination` saying `limit: "all"`.
 */
const t = useTestSite({ caller: 'integration' });
const POSTS = STREAM_PAGE_ROWS * 2 + 17;
const EVERY = 100_000;

beforeAll(async () => {
  const tags = [await makeTag(t, { name: 'News' }), await makeTag(t, { name: 'Sport' }), await makeTag(t, { name: '#hidden' })];
  const writer = await makeStaff(t, 'Author', { name: 'Second Writer' });
  for (let i = 0; i < POSTS; i++) {
    await makePost(t, {
      title: `Post ${String(i).padStart(3, '0')} ${i % 3 ? 'beta' : 'alpha'}`,
      slug: `post-${i}`,
      status: i % 11 === 5 ? 'draft' : 'published',
      featured: i % 4 === 0,
      visibility: i % 13 === 0 ? 'members' : 'public',
      // Ties in published_at, broken by id the same way whether streamed or not.
      published_at: new Date(Date.UTC(2024, 0, 1 + Math.floor(i / 2))).toISOString(),
      tags: tags.slice(i % 3, (i % 3) + (i % 4)).map((id) => ({ id })),
      ...(i % 7 === 0
        ? { authors: [writer.id, (await t.db.selectFrom('users').select('id').where('slug', '!=', writer.slug).executeTakeFirstOrThrow()).id] }
        : {}),
      custom_excerpt: i % 5 === 0 ? `Excerpt ${i}` : null,
      lexical: lexicalOf(`Body of post ${i} with <a href="https://example.com/${i}">a link</a>`),
    });
  }
  for (let i = 0; i < 5; i++) await makePage(t, { title: `Page ${i}`, status: 'published', tags: [{ id: tags[0]! }] });
}, 600_000);

type Get = (url: string) => ReturnType<typeof t.content.get>;

/** The streamed answer, and the same request with a numeric limit: same rows, same bytes per row. */
async function expectStreamedEqualsNumeric(get: Get, path: string, query: string) {
  const sep = query ? '&' : '';
  const [streamed, numeric] = await Promise.all([get(`${path}?limit=all${sep}${query}`), get(`${path}?limit=${EVERY}${sep}${query}`)]);
  expect(numeric.statusCode, numeric.body).toBe(200);
  expect(streamed.statusCode, streamed.body).toBe(200);
  expect(streamed.headers['content-type']).toBe(numeric.headers['content-type']);
  const key = path.split('/')[1]!;
  const expected = numeric.json();
  const rows = expected[key] as unknown[];
  const meta = { pagination: { page: 1, limit: 'all', pages: 1, total: rows.length, next: null, prev: null } };
  // Byte for byte what one JSON.stringify of the whole answer gives.
  expect(streamed.body).toBe(JSON.stringify({ [key]: rows, meta }));
  return rows;
}

describe('limit=all streams the same answer as a numeric limit', () => {
  const content: Get = (url) => t.content.get(url);
  const cases: [string, string, number?][] = [
    ['/posts/', '', POSTS - 20],
    ['/posts/', 'include=tags,authors'],
    ['/posts/', 'include=authors,tags&formats=html,plaintext'],
    ['/posts/', 'fields=title,slug,url&include=tags'],
    ['/posts/', 'fields=id,excerpt,reading_time&formats=plaintext'],
    ['/posts/', 'filter=tag:news%2Bfeatured:true&include=tags'],
    ['/posts/', 'filter=title:~%27alpha%27&order=title%20desc'],
    ['/posts/', 'order=published_at%20asc,title%20desc&include=authors'],
    ['/posts/', 'filter=slug:[post-201,post-3,post-150,post-7]'],
    ['/posts/', 'filter=visibility:members'],
    ['/pages/', 'include=tags'],
    ['/tags/', 'include=count.posts'],
    ['/tags/', 'include=count.posts&order=count.posts%20desc'],
    ['/authors/', 'include=count.posts&fields=name,slug'],
  ];
  for (const [path, query, atLeast] of cases) {
    it(`${path}?${query}`, async () => {
      const rows = await expectStreamedEqualsNumeric(content, path, query);
      if (atLeast) expect(rows.length).toBeGreaterThanOrEqual(atLeast);
    });
  }

  it('Admin API posts: every status, with relations and lexical', async () => {
    const admin: Get = (url) => t.admin.get(url);
    const rows = await expectStreamedEqualsNumeric(admin, '/posts/', 'include=tags,authors&formats=lexical,html');
    expect(rows.length).toBe(POSTS);
  });

  it('an empty result is an empty list', async () => {
    await expectStreamedEqualsNumeric(content, '/posts/', 'filter=slug:no-such-post');
  });
});

describe('limit=all fails before its first byte', () => {
  it('a filter that does not parse: the same 400 as with a numeric limit', async () => {
    const [streamed, numeric] = await Promise.all([t.content.get('/posts/?limit=all&filter=tag:['), t.content.get('/posts/?limit=5&filter=tag:[')]);
    expect(streamed.statusCode).toBe(400);
    const { id: _a, ...error } = ghostError(streamed);
    const { id: _b, ...expected } = ghostError(numeric);
    expect(error).toEqual(expected);
    expect(error.type).toBe('BadRequestError');
  });

  it('an order Ghost refuses, and formats outside the list: the same 422 as with a numeric limit', async () => {
    for (const query of ['order=title%3Bdrop', 'formats=mobiledoc,pdf']) {
      const [streamed, numeric] = await Promise.all([t.content.get(`/posts/?limit=all&${query}`), t.content.get(`/posts/?limit=5&${query}`)]);
      expect(streamed.statusCode).toBe(422);
      const { id: _a, ...error } = ghostError(streamed);
      const { id: _b, ...expected } = ghostError(numeric);
      expect(error).toEqual(expected);
      expect(error.type).toBe('ValidationError');
    }
  });

  it('a filter on a private author field is refused as with a numeric limit', async () => {
    const [streamed, numeric] = await Promise.all([
      t.content.get('/posts/?limit=all&filter=authors.password:x'),
      t.content.get('/posts/?limit=5&filter=authors.password:x'),
    ]);
    expect(streamed.statusCode).toBe(numeric.statusCode);
    expect(streamed.statusCode).toBeGreaterThanOrEqual(400);
    const { id: _a, ...error } = ghostError(streamed);
    const { id: _b, ...expected } = ghostError(numeric);
    expect(error).toEqual(expected);
  });

  it('an unknown include is dropped, as Ghost drops it', async () => {
    const res = await t.content.get('/posts/?limit=all&include=nonsense,tags&fields=id');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().posts[0])).toEqual(['id', 'tags']);
  });
});

describe('over HTTP', () => {
  it('the answer is chunked, with no content-length; a numeric limit is not', async () => {
    const base = await t.listen();
    const url = (limit: string) => `${base}${CONTENT}/posts/?limit=${limit}&include=tags&key=${t.keys.contentKey}`;
    const streamed = await fetch(url('all'));
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('transfer-encoding')).toBe('chunked');
    expect(streamed.headers.get('content-length')).toBeNull();
    expect(streamed.headers.get('cache-control')).toBe('public, max-age=0');
    const body = await streamed.json();
    expect(body.meta.pagination.total).toBe(body.posts.length);
    const numeric = await fetch(url(String(EVERY)));
    expect(numeric.headers.get('content-length')).not.toBeNull();
    await numeric.arrayBuffer();
  });
});
