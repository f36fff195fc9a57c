import { afterAll, beforeAll, expect, it } from 'vitest';
import { useTestSite } from '../../../test/test-site.js';
import { WebhookReceiver, eventually, pause, verifySignature } from '../../../test/webhook-receiver.js';

/** Member webhook events as a receiver gets them, in the payload Ghost 5.130.6 sends (compared with it). */
const t = useTestSite({ jobs: true, settings: { WEBHOOK_ALLOW_PRIVATE: 'true', JOBS_POLL_MS: '20' } });
const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

type Member = Record<string, unknown>;
type Payload = { member: { current: Member; previous: Member } };
const SECRET = 'member-hooks-secret';

/** The keys Ghost's `member.added` carries for a member added without labels, in its order. */
const ADDED_KEYS = [
  'id',
  'uuid',
  'email',
  'name',
  'note',
  'geolocation',
  'subscribed',
  'created_at',
  'updated_at',
  'subscriptions',
  'avatar_image',
  'comped',
  'email_count',
  'email_opened_count',
  'email_open_rate',
  'status',
  'last_seen_at',
  'tiers',
  'newsletters',
];
const withLabels = (keys: string[]) => [...keys.slice(0, keys.indexOf('updated_at') + 1), 'labels', ...keys.slice(keys.indexOf('updated_at') + 1)];

it('delivers member.added, member.edited (changed keys only) and member.deleted, signed, in Ghost’s payload; bulk edits and deletes fire none', async () => {
  for (const event of ['member.added', 'member.edited', 'member.deleted']) {
    const res = await t.admin.post('/webhooks/', { webhooks: [{ event, target_url: `${receiver.url}/${event}`, secret: SECRET }] }, t.integration());
    expect(res.statusCode).toBe(201);
  }
  const tiers = (await t.admin.get('/tiers/')).json().tiers as { id: string; type: string }[];
  const paid = tiers.find((tier) => tier.type === 'paid')!.id;
  const plain = (await t.admin.post('/members/', { members: [{ email: 'plain@example.com', tiers: [{ id: paid }] }] })).json().members[0];
  const labelled = (await t.admin.post('/members/', { members: [{ email: 'lab@example.com', name: 'Lab', labels: ['Hooked'] }] })).json().members[0];
  expect((await t.admin.put(`/members/${labelled.id}/`, { members: [{ name: 'Lab Renamed', newsletters: [] }] })).statusCode).toBe(200);
  // Same name again: nothing changes, and Ghost fires nothing.
  expect((await t.admin.put(`/members/${labelled.id}/`, { members: [{ name: 'Lab Renamed' }] })).statusCode).toBe(200);
  expect((await t.admin.put(`/members/${labelled.id}/`, { members: [{ labels: ['Hooked', 'Second'] }] })).statusCode).toBe(200);
  expect((await t.admin.del(`/members/${labelled.id}/`)).statusCode).toBe(204);
  expect((await t.admin.put('/members/bulk/?all=true', { bulk: { action: 'unsubscribe' } })).statusCode).toBe(200);
  expect((await t.admin.del('/members/?all=true')).statusCode).toBe(200);

  const got = (event: string) => receiver.on(`/${event}`);
  await eventually(() => got('member.added').length === 2 && got('member.edited').length === 2 && got('member.deleted').length === 1, 10_000, 'member events');
  await pause(300);
  // The bulk unsubscribe and the bulk delete of `plain` fired nothing, as in Ghost.
  expect(got('member.edited')).toHaveLength(2);
  expect(got('member.deleted')).toHaveLength(1);
  for (const received of receiver.received) expect(verifySignature(received, SECRET)).toBe(true);
  const payloads = (event: string) => got(event).map((r) => r.json as Payload);

  const [addedPlain, addedLabelled] = payloads('member.added');
  expect(Object.keys(addedPlain!.member.current)).toEqual(ADDED_KEYS);
  expect(addedPlain!.member.previous).toEqual({});
  expect(addedPlain!.member.current).toMatchObject({ id: plain.id, email: 'plain@example.com', status: 'comped', comped: true, subscriptions: [] });
  // Tiers as product rows, with the currency upper-cased as Ghost's model shows it.
  expect(addedPlain!.member.current.tiers).toEqual([expect.objectContaining({ id: paid, type: 'paid', currency: 'USD', monthly_price_id: null })]);
  expect(Object.keys(addedLabelled!.member.current)).toEqual(withLabels(ADDED_KEYS));

  const [renamed, relabelled] = payloads('member.edited');
  // An edit that did not name tiers shows none; its labels always.
  expect(Object.keys(renamed!.member.current)).toEqual(withLabels(ADDED_KEYS).filter((key) => key !== 'tiers'));
  expect(renamed!.member.current).toMatchObject({ name: 'Lab Renamed', subscribed: false, newsletters: [] });
  // Timestamps have Ghost's one-second precision: within the second of the add, updated_at stays.
  const moved = renamed!.member.current.updated_at !== addedLabelled!.member.current.updated_at;
  expect(Object.keys(renamed!.member.previous).sort()).toEqual(['name', 'newsletters', ...(moved ? ['updated_at'] : [])]);
  expect(renamed!.member.previous).toMatchObject({ name: 'Lab', newsletters: [expect.objectContaining({ status: 'active' })] });
  // Labels alone: the only changed key, and updated_at does not move.
  expect(relabelled!.member.previous).toEqual({ labels: [expect.objectContaining({ name: 'Hooked' })] });
  expect(relabelled!.member.current.updated_at).toBe(renamed!.member.current.updated_at);

  const deleted = payloads('member.deleted')[0]!.member;
  expect(deleted.current).toEqual({});
  expect(Object.keys(deleted.previous)).toEqual([
    'labels',
    'id',
    'uuid',
    'email',
    'status',
    'name',
    'note',
    'geolocation',
    'email_count',
    'email_opened_count',
    'email_open_rate',
    'last_seen_at',
    'created_at',
    'updated_at',
  ]);
  expect(deleted.previous).toMatchObject({ id: labelled.id, name: 'Lab Renamed', labels: [{ name: 'Hooked' }, { name: 'Second' }] });
});

it('records nothing for a member write that fails', async () => {
  const before = receiver.received.length;
  const res = await t.admin.post('/members/', { members: [{ email: 'not-an-email' }] });
  expect(res.statusCode).toBe(422);
  const outbox = await t.db.selectFrom('outbox').select('event').where('event', 'like', 'member.%').execute();
  // Two adds, two edits and one delete from the test before; nothing for the refused add.
  expect(outbox).toHaveLength(5);
  await pause(200);
  expect(receiver.received.length).toBe(before);
});
