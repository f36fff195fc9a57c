import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexicalOf } from '../../../test/factories.js';
import { useTestSite } from '../../../test/test-site.js';
import { WebhookReceiver, eventually, pause } from '../../../test/webhook-receiver.js';

/** Post and page webhook events, as a receiver gets them: the events fired by each write and their payloads. */
const t = useTestSite({ jobs: true, settings: { WEBHOOK_ALLOW_PRIVATE: 'true', JOBS_POLL_MS: '20' } });
const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

type Payload = Record<string, { current: Record<string, unknown>; previous: Record<string, unknown> }>;

/** Subscribes one receiver path per event; returns how to read what each got. */
async function subscribeAll(events: string[]) {
  const paths = new Map<string, string>();
  for (const event of events) {
    const path = `/${event}-${Math.random().toString(36).slice(2)}`;
    const res = await t.admin.post('/webhooks/', { webhooks: [{ event, target_url: `${receiver.url}${path}` }] }, t.integration());
    expect(res.statusCode).toBe(201);
    paths.set(event, path);
  }
  return {
    got: (event: string) => receiver.on(paths.get(event)!).map((r) => r.json as Payload),
    count: (event: string) => receiver.on(paths.get(event)!).length,
    ids: () =>
      t.db
        .selectFrom('webhooks')
        .select('id')
        .where(
          'target_url',
          'in',
          [...paths.values()].map((path) => `${receiver.url}${path}`),
        )
        .execute(),
  };
}

async function unsubscribe(hooks: { ids: () => Promise<{ id: string }[]> }) {
  for (const { id } of await hooks.ids()) await t.admin.del(`/webhooks/${id}/`, t.integration());
}

describe('post events', () => {
  it('serialises the post as the Admin API reads it, with mobiledoc, html and plaintext, tags and authors, never lexical', async () => {
    const hooks = await subscribeAll(['post.published']);
    const res = await t.admin.post('/posts/', { posts: [{ title: 'Signed', status: 'published', lexical: lexicalOf('Hello'), tags: [{ name: 'News' }] }] });
    expect(res.statusCode).toBe(201);
    await eventually(() => hooks.count('post.published') === 1, 10_000, 'post.published');
    const { current, previous } = hooks.got('post.published')[0]!.post!;
    expect(previous).toEqual({});
    expect(current).toMatchObject({
      id: res.json().posts[0].id,
      title: 'Signed',
      status: 'published',
      plaintext: 'Hello',
      url: expect.stringMatching(/^http/),
    });
    expect(current).toHaveProperty('html');
    expect(current).toHaveProperty('mobiledoc');
    expect(current).not.toHaveProperty('lexical');
    expect((current.tags as { name: string }[]).map((tag) => tag.name)).toEqual(['News']);
    expect(current.authors).toHaveLength(1);
    expect(current).toHaveProperty('primary_tag.name', 'News');
    await unsubscribe(hooks);
  });

  it("fires Ghost's sequence for create, edit and delete of a published post, and for pages", async () => {
    const hooks = await subscribeAll([
      'post.added',
      'post.edited',
      'post.published',
      'post.published.edited',
      'post.unpublished',
      'post.deleted',
      'page.added',
      'page.published',
      'site.changed',
    ]);
    const created = (await t.admin.post('/posts/', { posts: [{ title: 'Events', status: 'published', lexical: lexicalOf('x') }] })).json().posts[0];
    const edited = await t.admin.put(`/posts/${created.id}/`, { posts: [{ title: 'Events renamed', updated_at: created.updated_at }] });
    expect(edited.statusCode).toBe(200);
    expect((await t.admin.del(`/posts/${created.id}/`)).statusCode).toBe(204);
    expect((await t.admin.post('/pages/', { pages: [{ title: 'A page', status: 'published' }] })).statusCode).toBe(201);
    await eventually(
      () => hooks.count('post.deleted') === 1 && hooks.count('page.published') === 1 && hooks.count('site.changed') === 4,
      10_000,
      'every event',
    );
    await pause(200);
    expect(['post.added', 'post.published', 'post.edited', 'post.published.edited', 'post.unpublished', 'page.added'].map(hooks.count)).toEqual([
      1, 1, 1, 1, 1, 1,
    ]);
    const edit = hooks.got('post.edited')[0]!.post!;
    expect(edit.current.title).toBe('Events renamed');
    // `previous` holds only what the save changed.
    expect(edit.previous.title).toBe('Events');
    expect(edit.previous).not.toHaveProperty('id');
    expect(edit.previous).not.toHaveProperty('status');
    const deleted = hooks.got('post.deleted')[0]!.post!;
    expect(deleted.current).toEqual({});
    expect(deleted.previous.id).toBe(created.id);
    expect(hooks.got('post.unpublished')[0]!.post!.previous.id).toBe(created.id);
    expect(hooks.got('page.added')[0]!.page!.current.title).toBe('A page');
    await unsubscribe(hooks);
  });

  it('fires status events for draft → published → draft and for scheduling', async () => {
    const hooks = await subscribeAll([
      'post.added',
      'post.published',
      'post.unpublished',
      'post.scheduled',
      'post.rescheduled',
      'post.unscheduled',
      'post.edited',
    ]);
    let post = (await t.admin.post('/posts/', { posts: [{ title: 'Draft' }] })).json().posts[0];
    post = (await t.admin.put(`/posts/${post.id}/`, { posts: [{ status: 'published', updated_at: post.updated_at }] })).json().posts[0];
    post = (await t.admin.put(`/posts/${post.id}/`, { posts: [{ status: 'draft', updated_at: post.updated_at }] })).json().posts[0];
    const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    post = (await t.admin.put(`/posts/${post.id}/`, { posts: [{ status: 'scheduled', published_at: later(1), updated_at: post.updated_at }] })).json().posts[0];
    post = (await t.admin.put(`/posts/${post.id}/`, { posts: [{ published_at: later(2), updated_at: post.updated_at }] })).json().posts[0];
    post = (await t.admin.put(`/posts/${post.id}/`, { posts: [{ status: 'draft', updated_at: post.updated_at }] })).json().posts[0];
    expect(post.status).toBe('draft');
    await eventually(() => hooks.count('post.edited') === 5 && hooks.count('post.unscheduled') === 1, 10_000, 'every event');
    await pause(200);
    expect(['post.added', 'post.published', 'post.unpublished', 'post.scheduled', 'post.rescheduled', 'post.unscheduled'].map(hooks.count)).toEqual([
      1, 1, 1, 1, 1, 1,
    ]);
    expect(hooks.got('post.published')[0]!.post!.previous.status).toBe('draft');
    await unsubscribe(hooks);
  });

  it("fires post.tag.attached and post.tag.detached once per tag, in Ghost's order, with the post as payload", async () => {
    const hooks = await subscribeAll(['post.tag.attached', 'post.tag.detached', 'page.tag.attached']);
    const seen = new Set<string>();
    /** Post and site events recorded since the last call, in order (tag.* of the tags a write creates left out). */
    const sequence = async () => {
      const rows = await t.db.selectFrom('outbox').select(['id', 'event']).orderBy('created_at').orderBy('id').execute();
      const fresh = rows.filter((row) => !seen.has(row.id));
      for (const row of rows) seen.add(row.id);
      return fresh.map((row) => row.event).filter((event) => !event.startsWith('tag.'));
    };
    await sequence();
    const post = (await t.admin.post('/posts/', { posts: [{ title: 'Tagged', status: 'published', tags: ['Alpha', 'Beta'] }] })).json().posts[0];
    // Ghost 5.130.6 records the attachments before the insert's own event.
    expect(await sequence()).toEqual(['post.tag.attached', 'post.tag.attached', 'post.added', 'post.published', 'site.changed']);
    await eventually(() => hooks.count('post.tag.attached') === 2, 10_000, 'two attached');
    const attached = hooks.got('post.tag.attached')[0]!.post!;
    expect(attached.current).toMatchObject({ id: post.id, title: 'Tagged' });
    expect((attached.current.tags as { name: string }[]).map((tag) => tag.name)).toEqual(['Alpha', 'Beta']);
    expect(attached.previous).toEqual({});

    await t.admin.put(`/posts/${post.id}/`, { posts: [{ tags: ['Beta', 'Gamma'], updated_at: post.updated_at }] });
    expect(await sequence()).toEqual(['post.tag.detached', 'post.tag.attached', 'post.published.edited', 'post.edited', 'site.changed']);
    await eventually(() => hooks.count('post.tag.detached') === 1 && hooks.count('post.tag.attached') === 3, 10_000, 'the edit');
    const detached = hooks.got('post.tag.detached')[0]!.post!;
    expect((detached.current.tags as { name: string }[]).map((tag) => tag.name)).toEqual(['Beta', 'Gamma']);
    expect((detached.previous.tags as { name: string }[]).map((tag) => tag.name)).toEqual(['Alpha', 'Beta']);

    await t.admin.post('/pages/', { pages: [{ title: 'Tagged page', tags: ['Alpha'] }] });
    await eventually(() => hooks.count('page.tag.attached') === 1, 10_000, 'page.tag.attached');
    expect(hooks.got('page.tag.attached')[0]!.page!.current.title).toBe('Tagged page');
    await unsubscribe(hooks);
  });

  it('announces a copy as added, a draft', async () => {
    const hooks = await subscribeAll(['post.added']);
    const source = (await t.admin.post('/posts/', { posts: [{ title: 'Original', status: 'published' }] })).json().posts[0];
    const copy = await t.admin.post(`/posts/${source.id}/copy/`);
    expect(copy.statusCode).toBe(201);
    await eventually(() => hooks.count('post.added') === 2, 10_000, 'both adds');
    expect(hooks.got('post.added')[1]!.post!.current).toMatchObject({ id: copy.json().posts[0].id, title: 'Original (Copy)', status: 'draft' });
    await unsubscribe(hooks);
  });

  it('records nothing for posts when no webhook listens', async () => {
    const before = await t.db.selectFrom('outbox').select('id').where('event', 'like', 'post.%').execute();
    await t.admin.post('/posts/', { posts: [{ title: 'Unheard' }] });
    const after = await t.db.selectFrom('outbox').select('id').where('event', 'like', 'post.%').execute();
    expect(after.length).toBe(before.length);
  });
});
