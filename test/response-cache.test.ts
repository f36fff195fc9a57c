import type { FastifyInstance, InjectOptions } from 'fastify';
import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { connect, type Connection } from '../src/db/connect.js';
import { readContentVersion } from '../src/events/content-version.js';
import { CONTENT } from './support.js';
import { lexicalOf, makeIntegration, makePost } from './factories.js';
import { useTestSite, withTestSite, type TestSite } from './test-site.js';

/**
 * The Content API response cache through HTTP: what a hit answers, that every write changing an answer is
 * seen at once (through this instance and another on the same database, with and without Redis), that a
 * draft's edit keeps what is kept, entity tags and 304s, keys, and the byte bound.
 */

/** Records the tables each SELECT reads: a kept answer is served without reading `posts`, `tags` or `settings`. */
class TableReads implements KyselyPlugin {
  tables: string[] = [];
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const select = node as { kind: string; from?: { froms?: { table?: { identifier?: { name?: string } } }[] } };
    if (select.kind === 'SelectQueryNode') for (const from of select.from?.froms ?? []) this.tables.push(from.table?.identifier?.name ?? '?');
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
  /** The tables `fn`'s requests read. */
  async during(fn: () => Promise<unknown>): Promise<string[]> {
    const start = this.tables.length;
    await fn();
    return this.tables.slice(start);
  }
}

/** What a hit reads: the key check, and in the database mode the content version. */
const HIT_READS = ['api_keys', 'cache_versions'];

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const reads = new TableReads();
const t = useTestSite({ plugins: [reads] });
/** For the throw-away sites of single tests. */
const siteReads = new TableReads();

const contentUrl = (url: string, key = t.keys.contentKey) => `${CONTENT}${url}${url.includes('?') ? '&' : '?'}key=${key}`;
const get = (app: FastifyInstance, url: string, headers: InjectOptions['headers'] = {}, key?: string) => app.inject({ url: contentUrl(url, key), headers });

async function editPost(site: TestSite, id: string, fields: Record<string, unknown>) {
  const current = (await site.admin.get(`/posts/${id}/`)).json().posts[0];
  const res = await site.admin.put(`/posts/${id}/`, { posts: [{ ...fields, updated_at: current.updated_at }] });
  expect(res.statusCode, res.body).toBe(200);
}

/** A second instance of the site's service on the same database, as another process would run it. */
async function secondInstance(site: TestSite, plugins: KyselyPlugin[] = []): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const connection: Connection = connect(site.config.databaseUrl, { poolSize: 4 });
  const db = plugins.reduce((handle, plugin) => handle.withPlugin(plugin), connection.db);
  const app = await buildApp({ config: site.config, connection: { ...connection, db } });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await connection.close();
    },
  };
}

let postId: string;
let slug: string;
beforeAll(async () => {
  postId = await makePost(t, { title: 'Cached Post', status: 'published', lexical: lexicalOf('Words worth keeping.'), tags: ['Cached Tag'] });
  slug = (await t.admin.get(`/posts/${postId}/`)).json().posts[0].slug;
});

describe('a kept answer', () => {
  it('is the same body and headers, served without computing it again', async () => {
    const first = await get(t.app, '/posts/?include=tags,authors');
    expect(first.statusCode).toBe(200);
    let second = first;
    const tables = await reads.during(async () => (second = await get(t.app, '/posts/?include=tags,authors')));
    expect(tables).toEqual(HIT_READS);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    for (const header of ['content-type', 'cache-control', 'vary', 'content-version', 'etag', 'content-length', 'access-control-allow-origin']) {
      expect(second.headers[header], header).toBe(first.headers[header]);
    }
    // Per-request headers are the request's own.
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('answers HEAD with the headers and no body, from the cache too', async () => {
    const full = await get(t.app, `/posts/slug/${slug}/`);
    for (let i = 0; i < 2; i++) {
      const head = await t.app.inject({ method: 'HEAD', url: contentUrl(`/posts/slug/${slug}/`) });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-length']).toBe(full.headers['content-length']);
      expect(head.headers.etag).toBe(full.headers.etag);
    }
  });

  it('is not shared between two keys', async () => {
    const other = await makeIntegration(t);
    await get(t.app, '/tags/');
    const tables = await reads.during(() => get(t.app, '/tags/', {}, other.contentKey));
    expect(tables).toContain('tags');
  });

  it("is refused once its key's integration is deleted", async () => {
    const other = await makeIntegration(t);
    expect((await get(t.app, '/tags/', {}, other.contentKey)).statusCode).toBe(200);
    expect((await get(t.app, '/tags/', {}, other.contentKey)).statusCode).toBe(200);
    expect((await t.admin.del(`/integrations/${other.integrationId}/`)).statusCode).toBe(204);
    const res = await get(t.app, '/tags/', {}, other.contentKey);
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('UNKNOWN_CONTENT_API_KEY');
  });

  it('is kept per Accept-Version', async () => {
    await get(t.app, '/tags/', { 'accept-version': 'v5.0' });
    const tables = await reads.during(() => get(t.app, '/tags/', { 'accept-version': 'v5.130' }));
    expect(tables).toContain('tags');
    expect(await reads.during(() => get(t.app, '/tags/', { 'accept-version': 'v5.130' }))).toEqual(HIT_READS);
  });

  it('is checked by one version read shared by requests that arrive together', async () => {
    await get(t.app, '/tags/');
    const tables = await reads.during(() => Promise.all(Array.from({ length: 40 }, () => get(t.app, '/tags/'))));
    expect(tables.filter((table) => table === 'api_keys')).toHaveLength(40);
    const versionReads = tables.filter((table) => table === 'cache_versions').length;
    expect(versionReads).toBeGreaterThan(0);
    expect(versionReads).toBeLessThan(20);
  });
});

describe('a write that changes an answer is seen at once', () => {
  it("an Admin edit of a published post's title", async () => {
    expect((await get(t.app, `/posts/slug/${slug}/`)).json().posts[0].title).toBe('Cached Post');
    await editPost(t, postId, { title: 'Edited Title' });
    expect((await get(t.app, `/posts/slug/${slug}/`)).json().posts[0].title).toBe('Edited Title');
    expect((await get(t.app, '/posts/')).json().posts.map((p: { title: string }) => p.title)).toContain('Edited Title');
  });

  it("a tag's edit", async () => {
    const tag = (await get(t.app, '/tags/')).json().tags.find((x: { name: string }) => x.name === 'Cached Tag');
    await get(t.app, `/tags/slug/${tag.slug}/`);
    expect((await t.admin.put(`/tags/${tag.id}/`, { tags: [{ description: 'Now described' }] })).statusCode).toBe(200);
    expect((await get(t.app, `/tags/slug/${tag.slug}/`)).json().tags[0].description).toBe('Now described');
    expect((await get(t.app, '/posts/?include=tags')).json().posts.find((p: { id: string }) => p.id === postId).tags[0].description).toBe('Now described');
  });

  it('a setting', async () => {
    expect((await get(t.app, '/settings/')).json().settings.title).toBe('Test Site');
    const res = await t.admin.put('/settings/', { settings: [{ key: 'title', value: 'Retitled Site' }] });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(t.app, '/settings/')).json().settings.title).toBe('Retitled Site');
  });

  it("a tag renamed through a draft's body (no site.changed, but the Content API shows the tag)", async () => {
    const tag = (await get(t.app, '/tags/')).json().tags.find((x: { slug: string }) => x.slug === 'cached-tag');
    const draft = await makePost(t, { title: 'Draft naming the tag' });
    expect((await get(t.app, `/tags/${tag.id}/`)).json().tags[0].name).toBe('Cached Tag');
    await editPost(t, draft, { tags: [{ id: tag.id, name: 'Renamed Through A Draft' }] });
    expect((await get(t.app, `/tags/${tag.id}/`)).json().tags[0].name).toBe('Renamed Through A Draft');
  });
});

describe('precise invalidation', () => {
  it("a draft's edit keeps every kept answer (the content version does not move)", async () => {
    const draft = await makePost(t, { title: 'Quiet Draft' });
    await get(t.app, '/posts/?include=tags,authors');
    const version = await readContentVersion(t.db);
    await editPost(t, draft, { title: 'Quiet Draft, edited' });
    expect(await readContentVersion(t.db)).toBe(version);
    expect(await reads.during(() => get(t.app, '/posts/?include=tags,authors'))).toEqual(HIT_READS);
  });

  it('publishing the draft moves it and the post appears', async () => {
    const draft = await makePost(t, { title: 'Soon Public' });
    await get(t.app, '/posts/');
    const version = await readContentVersion(t.db);
    await editPost(t, draft, { status: 'published' });
    expect(await readContentVersion(t.db)).toBeGreaterThan(version);
    expect((await get(t.app, '/posts/')).json().posts.map((p: { title: string }) => p.title)).toContain('Soon Public');
  });
});

describe('entity tags', () => {
  it('a strong ETag that changes when the answer changes, 304 for If-None-Match on a kept and a computed answer', async () => {
    const url = `/posts/${postId}/`;
    const first = await get(t.app, url);
    const etag = first.headers.etag as string;
    // Ghost's form (Express: hex length, SHA-1 in base64), strong where Ghost's is weak (W/).
    expect(etag).toMatch(/^"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    expect(etag.split('-')[0]).toBe(`"${Buffer.byteLength(first.body).toString(16)}`);
    const hit = await get(t.app, url, { 'if-none-match': etag });
    expect(hit.statusCode).toBe(304);
    expect(hit.body).toBe('');
    expect(hit.headers.etag).toBe(etag);
    expect(hit.headers['content-type']).toBeUndefined();
    expect(hit.headers['cache-control']).toBe('public, max-age=0');
    expect((await get(t.app, url, { 'if-none-match': '"something-else"' })).statusCode).toBe(200);
    expect((await get(t.app, url, { 'if-none-match': `"other", ${etag}` })).statusCode).toBe(304);
    expect((await get(t.app, url, { 'if-none-match': '*' })).statusCode).toBe(304);

    await editPost(t, postId, { custom_excerpt: 'A new excerpt' });
    const changed = await get(t.app, url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().posts[0].custom_excerpt).toBe('A new excerpt');
    // A conditional request that misses the cache (another URL, same bytes) is answered 304 as well.
    const fresh = await get(t.app, `${url}?fields=id,title,custom_excerpt`);
    const computed = await get(t.app, `${url}?fields=id,custom_excerpt,title`, { 'if-none-match': fresh.headers.etag as string });
    expect(computed.statusCode).toBe(304);
  });

  it('errors carry none', async () => {
    const res = await get(t.app, '/posts/0123456789abcdef01234567/');
    expect(res.statusCode).toBe(404);
    expect(res.headers.etag).toBeUndefined();
  });
});

describe('two instances on one database', () => {
  it('an edit through one is seen through the other at once (database mode), settings included', async () => {
    const reads2 = new TableReads();
    const other = await secondInstance(t, [reads2]);
    try {
      await get(other.app, `/posts/slug/${slug}/`);
      await get(other.app, '/settings/');
      expect(await reads2.during(() => get(other.app, `/posts/slug/${slug}/`))).toEqual(HIT_READS);
      await editPost(t, postId, { title: 'Seen Everywhere' });
      expect((await get(other.app, `/posts/slug/${slug}/`)).json().posts[0].title).toBe('Seen Everywhere');
      expect((await t.admin.put('/settings/', { settings: [{ key: 'description', value: 'Described everywhere' }] })).statusCode).toBe(200);
      expect((await get(other.app, '/settings/')).json().settings.description).toBe('Described everywhere');
    } finally {
      await other.close();
    }
  });

  it('settings another process changed are read again as soon as the new content version is seen', async () => {
    const other = await secondInstance(t);
    try {
      expect((await get(other.app, '/settings/')).json().settings.title).not.toBe('Changed Elsewhere');
      // What another process's settings edit commits; in this process nothing tells the settings cache.
      await t.db.transaction().execute(async (trx) => {
        await trx.updateTable('settings').set({ value: 'Changed Elsewhere' }).where('key', '=', 'title').execute();
        await trx
          .updateTable('cache_versions')
          .set({ version: sql`version + 1` })
          .where('name', 'in', ['settings', 'content'])
          .execute();
      });
      // Within the settings cache's own 1 s recheck: only the content version can have told it.
      expect((await get(other.app, '/settings/')).json().settings.title).toBe('Changed Elsewhere');
    } finally {
      await other.close();
    }
  });
});

describe('Redis mode', () => {
  it('two instances hear each other through Redis: no version read per hit, edits seen as soon as published', async () => {
    await withTestSite(
      async (site) => {
        const readsA = new TableReads();
        const readsB = new TableReads();
        const a = await secondInstance(site, [readsA]);
        const b = await secondInstance(site, [readsB]);
        try {
          const id = await makePost(site, { title: 'Redis Post', status: 'published' });
          // Once the subscription is live, a hit reads nothing but the key.
          const hit = () => readsB.during(() => get(b.app, `/posts/${id}/`, {}, site.keys.contentKey));
          await eventually(async () => JSON.stringify(await hit()) === '["api_keys"]');
          const res = await a.app.inject({
            method: 'PUT',
            url: `/ghost/api/admin/posts/${id}/`,
            headers: site.owner,
            payload: { posts: [{ title: 'Heard Through Redis', updated_at: (await site.admin.get(`/posts/${id}/`)).json().posts[0].updated_at }] },
          });
          expect(res.statusCode, res.body).toBe(200);
          // Published after the commit; well under the 1 s database recheck.
          const started = Date.now();
          await eventually(async () => (await get(b.app, `/posts/${id}/`, {}, site.keys.contentKey)).json().posts[0].title === 'Heard Through Redis');
          expect(Date.now() - started).toBeLessThan(500);
        } finally {
          await a.close();
          await b.close();
        }
      },
      { settings: { REDIS_URL } },
    );
  });

  it('an unreachable Redis falls back to the database mode', async () => {
    await withTestSite(
      async (site) => {
        const id = await makePost(site, { title: 'No Redis', status: 'published' });
        const other = await secondInstance(site);
        try {
          expect((await get(other.app, `/posts/${id}/`, {}, site.keys.contentKey)).json().posts[0].title).toBe('No Redis');
          await editPost(site, id, { title: 'Still Seen' });
          expect((await get(other.app, `/posts/${id}/`, {}, site.keys.contentKey)).json().posts[0].title).toBe('Still Seen');
        } finally {
          await other.close();
        }
      },
      { settings: { REDIS_URL: 'redis://127.0.0.1:25999' } },
    );
  });
});

describe('the byte bound', () => {
  it('evicts the least recently used answers', async () => {
    await withTestSite(
      async (site) => {
        // Three answers of ~420 KB each; 1 MB holds two.
        const slugs: string[] = [];
        for (const word of ['alpha', 'beta', 'gamma']) {
          const id = await makePost(site, { title: `Big ${word}`, status: 'published', lexical: lexicalOf(`${word} `.repeat(70_000)) });
          slugs.push((await site.admin.get(`/posts/${id}/`)).json().posts[0].slug);
        }
        const read = (s: string) => siteReads.during(() => get(site.app, `/posts/slug/${s}/`, {}, site.keys.contentKey));
        const [a, b, c] = slugs as [string, string, string];
        expect(await read(a)).toContain('posts');
        expect(await read(b)).toContain('posts');
        expect(await read(a)).toEqual(HIT_READS);
        // c pushes out b, the least recently used.
        expect(await read(c)).toContain('posts');
        expect(await read(a)).toEqual(HIT_READS);
        expect(await read(c)).toEqual(HIT_READS);
        expect(await read(b)).toContain('posts');
      },
      { settings: { RESPONSE_CACHE_MB: '1' }, plugins: [siteReads] },
    );
  });

  it('RESPONSE_CACHE_MB=0 keeps nothing, and answers still carry an ETag', async () => {
    await withTestSite(
      async (site) => {
        const id = await makePost(site, { title: 'Uncached', status: 'published' });
        const first = await get(site.app, `/posts/${id}/`, {}, site.keys.contentKey);
        expect(first.headers.etag).toMatch(/^"/);
        expect(await siteReads.during(() => get(site.app, `/posts/${id}/`, {}, site.keys.contentKey))).toContain('posts');
        expect((await get(site.app, `/posts/${id}/`, { 'if-none-match': first.headers.etag as string }, site.keys.contentKey)).statusCode).toBe(304);
      },
      { settings: { RESPONSE_CACHE_MB: '0' }, plugins: [siteReads] },
    );
  });
});

async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
