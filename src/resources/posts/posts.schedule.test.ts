import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { buildApp } from '../../app.js';
import { connect, type Connection } from '../../db/connect.js';
import { useTestSite, withTestSite } from '../../../test/test-site.js';
import { WebhookReceiver, eventually, pause } from '../../../test/webhook-receiver.js';

/**
 * Scheduled publishing by the job runner: on time, with a manual publish's events, never at a time the
 * post no longer has, after a stop, and exactly once with several instances on one database.
 */
// A generous timeout: on a loaded machine Ghost's 2 s would time out answers the receiver already sent.
const SETTINGS = { WEBHOOK_ALLOW_PRIVATE: 'true', JOBS_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '10000' };
const t = useTestSite({ jobs: true, settings: SETTINGS });
const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function subscribe(event: string): Promise<string> {
  const path = `/${event}-${Math.random().toString(36).slice(2)}`;
  const res = await t.admin.post('/webhooks/', { webhooks: [{ event, target_url: `${receiver.url}${path}` }] }, t.integration());
  expect(res.statusCode).toBe(201);
  return path;
}

async function schedule(title: string, at: string, type: 'posts' | 'pages' = 'posts') {
  const res = await t.admin.post(`/${type}/`, { [type]: [{ title, status: 'scheduled', published_at: at }] });
  expect(res.statusCode).toBe(201);
  return res.json()[type][0] as { id: string; updated_at: string; published_at: string };
}

const statusOf = async (id: string) => (await t.db.selectFrom('posts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const eventsOf = async (id: string) =>
  (await t.db.selectFrom('outbox').select('event').where('resource_id', '=', id).orderBy('created_at').orderBy('id').execute()).map((r) => r.event);

describe('scheduled publishing', () => {
  it('publishes a post a second after it was scheduled, with the events of a manual publish', async () => {
    const published = await subscribe('post.published');
    const changed = await subscribe('site.changed');
    const post = await schedule('Soon', inMs(1000));
    await eventually(() => receiver.on(published).some((r) => (r.json as any).post.current.id === post.id), 15_000, 'post.published');
    const got = receiver.on(published).find((r) => (r.json as any).post.current.id === post.id)!.json as any;
    expect(got.post.current).toMatchObject({ status: 'published', published_at: post.published_at });
    expect(got.post.previous).toMatchObject({ status: 'scheduled' });
    expect(await eventsOf(post.id)).toEqual(['post.added', 'post.scheduled', 'post.published', 'post.edited']);
    await eventually(() => receiver.on(changed).length > 0, 10_000, 'site.changed');
    const read = (await t.admin.get(`/posts/${post.id}/`)).json().posts[0];
    expect(read).toMatchObject({ status: 'published', published_at: post.published_at });
    // Published by the runner as Ghost's internal context: the Owner.
    expect((await t.db.selectFrom('posts').select('published_by').where('id', '=', post.id).executeTakeFirstOrThrow()).published_by).toBe('1');
  });

  it('records the newsletter e-mail of a post scheduled with one when it goes out', async () => {
    const draft = (await t.admin.post('/posts/', { posts: [{ title: 'Mailed later' }] })).json().posts[0];
    const res = await t.admin.put(`/posts/${draft.id}/?newsletter=default-newsletter`, {
      // Far enough ahead that the answer comes before the runner publishes it, even on a loaded machine.
      posts: [{ status: 'scheduled', published_at: inMs(3000), updated_at: draft.updated_at }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().posts[0].email).toBeNull();
    await eventually(async () => (await statusOf(draft.id)) === 'published', 15_000, 'published');
    const read = (await t.admin.get(`/posts/${draft.id}/`)).json().posts[0];
    expect(read.newsletter).toMatchObject({ slug: 'default-newsletter' });
    // No member is a recipient on this site: Ghost's row ends `submitted` then too.
    expect(read.email).toMatchObject({ status: 'submitted', email_count: 0, subject: 'Mailed later' });
  });

  it('publishes pages too', async () => {
    const published = await subscribe('page.published');
    const page = await schedule('Page soon', inMs(500), 'pages');
    await eventually(() => receiver.on(published).length === 1, 15_000, 'page.published');
    expect(await statusOf(page.id)).toBe('published');
  });

  it('does not publish at the old time a post that was rescheduled or unscheduled', async () => {
    // Far enough ahead that a loaded machine still edits both before they fall due.
    const moved = await schedule('Moved', inMs(4000));
    const dropped = await schedule('Dropped', inMs(4000));
    let res = await t.admin.put(`/posts/${moved.id}/`, { posts: [{ published_at: inMs(3_600_000), updated_at: moved.updated_at }] });
    expect(res.statusCode).toBe(200);
    res = await t.admin.put(`/posts/${dropped.id}/`, { posts: [{ status: 'draft', updated_at: dropped.updated_at }] });
    expect(res.statusCode).toBe(200);
    await pause(5500);
    expect(await statusOf(moved.id)).toBe('scheduled');
    expect(await statusOf(dropped.id)).toBe('draft');
  });

  it('publishes at start the posts that fell due while no instance ran', async () => {
    await withTestSite(
      async (site) => {
        const res = await site.admin.post('/posts/', { posts: [{ title: 'Missed', status: 'scheduled', published_at: inMs(3_600_000) }] });
        const id = res.json().posts[0].id as string;
        // The hour passed while the service was down.
        await site.db
          .updateTable('posts')
          .set({ published_at: new Date(Date.now() - 3_600_000) })
          .where('id', '=', id)
          .execute();
        const app = await buildApp({ config: site.config, connection: site.connection, runJobs: true });
        try {
          await app.ready();
          await eventually(
            async () => (await site.db.selectFrom('posts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status === 'published',
            10_000,
            'the publish',
          );
        } finally {
          await app.close();
        }
      },
      { settings: SETTINGS },
    );
  });
});

/** Counts one instance's publishes: its UPDATEs of `posts` that set `status` (only a won claim gets there). */
class PublishCounter implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const update = node as { kind: string; table?: { table?: { identifier?: { name?: string } } }; updates?: { column: { column: { name: string } } }[] };
    if (
      update.kind === 'UpdateQueryNode' &&
      update.table?.table?.identifier?.name === 'posts' &&
      update.updates?.some((u) => u.column.column.name === 'status')
    )
      this.count++;
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

describe('several instances', () => {
  // Three instances where the engine locks rows (a server database); SQLite is one process's file: one.
  const INSTANCES = process.env.TEST_DATABASE_URL ? 3 : 1;
  const POSTS = 200;

  it(`${INSTANCES} instance(s) publish ${POSTS} posts due within the same seconds, each once, and each post.published arrives once`, async () => {
    await withTestSite(
      async (site) => {
        const path = `/many-${Math.random().toString(36).slice(2)}`;
        await site.admin.post('/webhooks/', { webhooks: [{ event: 'post.published', target_url: `${receiver.url}${path}` }] }, site.integration());
        const ids: string[] = [];
        for (let i = 0; i < POSTS; i++) {
          const res = await site.admin.post('/posts/', { posts: [{ title: `Many ${i}`, status: 'scheduled', published_at: inMs(3_600_000) }] });
          ids.push(res.json().posts[0].id);
        }
        // All fall due within the same two seconds, a little after the instances started.
        const start = Date.now() + 1500;
        for (const [i, id] of ids.entries()) {
          await site.db
            .updateTable('posts')
            .set({ published_at: new Date(start + (i % 20) * 100) })
            .where('id', '=', id)
            .execute();
        }
        const connections: Connection[] = [];
        const apps: FastifyInstance[] = [];
        const counters = Array.from({ length: INSTANCES }, () => new PublishCounter());
        try {
          for (let i = 0; i < INSTANCES; i++) {
            const connection = connect(site.config.databaseUrl, { poolSize: 4 });
            connections.push(connection);
            const app = await buildApp({ config: site.config, connection: { ...connection, db: connection.db.withPlugin(counters[i]!) }, runJobs: true });
            await app.ready();
            apps.push(app);
          }
          await eventually(() => receiver.on(path).length >= POSTS, 120_000, `${POSTS} deliveries`);
          // Nothing more arrives: no post was published twice.
          await pause(1500);
        } finally {
          for (const app of apps) await app.close();
          for (const connection of connections) await connection.close();
        }
        // Each post published by exactly one instance; how they shared the work varies from run to run.
        console.log(`scheduled publishing: ${counters.map((c) => c.count).join(' + ')} posts published by ${INSTANCES} instance(s)`);
        expect(counters.reduce((sum, c) => sum + c.count, 0)).toBe(POSTS);
        const arrived = receiver.on(path).map((r) => (r.json as any).post.current.id as string);
        expect(new Set(arrived)).toEqual(new Set(ids));
        const statuses = await site.db.selectFrom('posts').select('status').where('id', 'in', ids).execute();
        expect(statuses.every((row) => row.status === 'published')).toBe(true);
        const events = await site.db.selectFrom('outbox').select('resource_id').where('event', '=', 'post.published').execute();
        expect(events).toHaveLength(POSTS);
        const deliveries = await site.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('event', '=', 'post.published').execute();
        expect(deliveries).toHaveLength(POSTS);
        expect(deliveries.every((row) => row.status === 'delivered')).toBe(true);
        // Each post.published arrives once, unless an attempt timed out after the receiver had it (a loaded
        // machine): then it is retried, and arrives again. A repeat without a retry would be a double claim.
        const retried = deliveries.reduce((sum, row) => sum + row.attempts - 1, 0);
        if (retried > 0) console.log(`scheduled publishing: ${retried} deliveries were retried`);
        expect(arrived.length - POSTS).toBeLessThanOrEqual(retried);
      },
      { settings: SETTINGS },
    );
  }, 240_000);
});
