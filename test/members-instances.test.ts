import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ghostError } from './support.js';
import { useSecondInstance, useTestSite } from './test-site.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { MEMBERS, cookiesOf, linkIn, openLink } from './members-support.js';
import { MailSink } from './mail-support.js';

/**
 * Two app instances on one database, as behind a load balancer: a link mailed by one signs in on the other,
 * a session made on one is read by the other, and the spam limits count requests to both. And the sign-up's
 * `member.added` webhook, delivered by the job runner from the outbox.
 */
const mail = new MailSink();
const receiver = new WebhookReceiver();
beforeAll(async () => {
  await mail.start();
  await receiver.start();
});
afterAll(async () => {
  await mail.stop();
  await receiver.stop();
});
const a = useTestSite({ settings: () => ({ MAIL_SMTP_URL: mail.url, WEBHOOK_ALLOW_PRIVATE: 'true', JOBS_POLL_MS: '50' }), jobs: true });

const second = useSecondInstance(a);
const b = () => second.app;

const send = (app: FastifyInstance, body: Record<string, unknown>, remoteAddress: string) =>
  app.inject({ method: 'POST', url: `${MEMBERS}/send-magic-link/`, remoteAddress, payload: body });

describe('two instances on one database', () => {
  it('signs in on B with a link mailed by A, and A knows the session', async () => {
    const before = mail.received.length;
    expect((await send(a.app, { email: 'roaming@example.com', emailType: 'signup' }, '10.5.0.1')).statusCode).toBe(201);
    const opened = await openLink(b(), linkIn(await mail.next('roaming@example.com', before)));
    expect(opened.headers.location).toBe('/?action=signup&success=true');
    const cookie = cookiesOf(opened);
    const onA = await a.app.inject({ url: `${MEMBERS}/member/`, headers: { cookie } });
    expect(onA.statusCode).toBe(200);
    expect(onA.json().email).toBe('roaming@example.com');
    // Signing out everywhere on A ends the session B made.
    expect((await a.app.inject({ method: 'DELETE', url: `${MEMBERS}/session/`, headers: { cookie }, payload: { all: true } })).statusCode).toBe(204);
    expect((await second.app.inject({ url: `${MEMBERS}/member/`, headers: { cookie } })).statusCode).toBe(204);
  });

  it('counts the per-address limit across both instances', async () => {
    const ip = '10.5.0.2';
    for (let i = 0; i < 5; i++) expect((await send(i % 2 ? b() : a.app, { email: 'shared.limit@example.com', emailType: 'signup' }, ip)).statusCode).toBe(201);
    const refusedOnA = await send(a.app, { email: 'shared.limit@example.com', emailType: 'signup' }, ip);
    expect(refusedOnA.statusCode).toBe(429);
    expect(ghostError(refusedOnA).type).toBe('TooManyRequestsError');
    expect((await send(b(), { email: 'shared.limit@example.com', emailType: 'signup' }, ip)).statusCode).toBe(429);
  });

  it('uses a link once within its window across instances, and counts every use', async () => {
    const before = mail.received.length;
    await send(a.app, { email: 'roaming@example.com', emailType: 'signin' }, '10.5.0.3');
    const link = linkIn(await mail.next('roaming@example.com', before));
    const token = new URL(link).searchParams.get('token')!;
    const opens = [() => openLink(a.app, link), () => openLink(b(), link), () => openLink(a.app, link)];
    // Two SQLite handles in one process would block each other's event loop while one waits for the file lock;
    // SQLite serves one instance (several instances run on a database server), so there the opens take turns.
    const opened =
      a.connection.engine.kind === 'sqlite' ? [await opens[0]!(), await opens[1]!(), await opens[2]!()] : await Promise.all(opens.map((open) => open()));
    expect(opened.map((r) => r.headers.location)).toEqual(Array(3).fill('/?action=signin&success=true'));
    const row = await a.db.selectFrom('tokens').select(['used_count', 'first_used_at']).where('token', '=', token).executeTakeFirstOrThrow();
    expect(row.used_count).toBe(3);
    expect(row.first_used_at).not.toBeNull();
  });
});

describe('member.added', () => {
  it('is delivered to a webhook when a reader signs up through a magic link', async () => {
    const integration = (await a.admin.post('/integrations/', { integrations: [{ name: 'Hooks' }] })).json().integrations[0];
    const hook = await a.admin.post('/webhooks/', {
      webhooks: [{ event: 'member.added', target_url: `${receiver.url}/added`, integration_id: integration.id }],
    });
    expect(hook.statusCode).toBe(201);
    const before = mail.received.length;
    await send(b(), { email: 'hooked@example.com', emailType: 'signup', name: 'Hooked Reader', labels: ['VIP'] }, '10.5.0.4');
    await openLink(b(), linkIn(await mail.next('hooked@example.com', before)));
    for (let i = 0; i < 100 && !receiver.received.some((r) => r.path === '/added'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const delivery = receiver.received.find((r) => r.path === '/added');
    expect(delivery).toBeDefined();
    const current = (delivery!.json as { member: { current: Record<string, unknown> } }).member.current;
    expect(current).toMatchObject({ email: 'hooked@example.com', name: 'Hooked Reader', status: 'free', labels: [{ name: 'VIP' }] });
  });

  it('member.edited is delivered when the member renames themselves', async () => {
    const integration = (await a.admin.post('/integrations/', { integrations: [{ name: 'Edits' }] })).json().integrations[0];
    await a.admin.post('/webhooks/', { webhooks: [{ event: 'member.edited', target_url: `${receiver.url}/edited`, integration_id: integration.id }] });
    const before = mail.received.length;
    await send(a.app, { email: 'hooked@example.com', emailType: 'signin' }, '10.5.0.5');
    const cookie = cookiesOf(await openLink(a.app, linkIn(await mail.next('hooked@example.com', before))));
    expect((await second.app.inject({ method: 'PUT', url: `${MEMBERS}/member/`, headers: { cookie }, payload: { name: 'Renamed Reader' } })).statusCode).toBe(
      200,
    );
    for (let i = 0; i < 100 && !receiver.received.some((r) => r.path === '/edited'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const edited = receiver.received.find((r) => r.path === '/edited')!.json as { member: { current: { name: string }; previous: { name: string } } };
    expect(edited.member.current.name).toBe('Renamed Reader');
    expect(edited.member.previous.name).toBe('Hooked Reader');
  });
});
