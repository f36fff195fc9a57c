import { afterAll, beforeAll, expect, it } from 'vitest';
import { useTestSite } from '../../../test/test-site.js';
import { WebhookReceiver, eventually, pause } from '../../../test/webhook-receiver.js';

/** Tag webhook events as a receiver gets them. */
const t = useTestSite({ jobs: true, settings: { WEBHOOK_ALLOW_PRIVATE: 'true', JOBS_POLL_MS: '20' } });
const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

type Payload = { tag: { current: Record<string, unknown>; previous: Record<string, unknown> } };

it('fires tag.added (also for a tag a post creates), tag.edited with the changed keys, tag.deleted, and site.changed', async () => {
  for (const event of ['tag.added', 'tag.edited', 'tag.deleted', 'site.changed']) {
    const res = await t.admin.post('/webhooks/', { webhooks: [{ event, target_url: `${receiver.url}/${event}` }] }, t.integration());
    expect(res.statusCode).toBe(201);
  }
  const tag = (await t.admin.post('/tags/', { tags: [{ name: 'Events' }] })).json().tags[0];
  expect((await t.admin.put(`/tags/${tag.id}/`, { tags: [{ description: 'Now described' }] })).statusCode).toBe(200);
  expect((await t.admin.del(`/tags/${tag.id}/`)).statusCode).toBe(204);
  expect((await t.admin.post('/posts/', { posts: [{ title: 'Tagged', tags: [{ name: 'Made by a post' }] }] })).statusCode).toBe(201);
  const got = (event: string) => receiver.on(`/${event}`).map((r) => r.json as Payload);
  await eventually(() => got('tag.added').length === 2 && got('tag.deleted').length === 1 && got('site.changed').length === 3, 10_000, 'every event');
  await pause(200);
  expect(got('tag.added').map((p) => p.tag.current.name)).toEqual(['Events', 'Made by a post']);
  expect(got('tag.added')[0]!.tag).toMatchObject({ previous: {}, current: { id: tag.id, slug: 'events', url: expect.stringMatching(/^http/) } });
  expect(got('tag.edited')).toHaveLength(1);
  const edited = got('tag.edited')[0]!.tag;
  expect(edited.current.description).toBe('Now described');
  expect(edited.previous).toMatchObject({ description: null });
  expect(edited.previous).not.toHaveProperty('name');
  expect(got('tag.deleted')[0]!.tag).toMatchObject({ current: {}, previous: { id: tag.id, name: 'Events' } });
  // Add, edit and delete of the tag answer with X-Cache-Invalidate: /*; the draft post does not.
  expect(got('site.changed')).toHaveLength(3);
});
