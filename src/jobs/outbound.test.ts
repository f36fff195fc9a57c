import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress } from './addresses.js';
import { postWebhook } from './outbound.js';
import { backoffMs } from './webhook-delivery.js';
import { WebhookReceiver } from '../../test/webhook-receiver.js';

const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const send = (url: string, allowPrivate: boolean, timeoutMs = 2000) => postWebhook({ url, body: '{}', secret: null, timeoutMs, allowPrivate, now: Date.now() });

describe('private addresses', () => {
  it('tells private, loopback and link-local addresses from public ones', () => {
    const blocked = [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '[::ffff:127.0.0.1]',
      // Every other IPv6 form that carries an IPv4 address: compatible, translated, NAT64, 6to4, Teredo.
      '::127.0.0.1',
      '::7f00:1',
      '::a9fe:a9fe',
      '::ffff:0:10.0.0.1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:FF9B:0:0:0:0:c0a8:101',
      '64:ff9b:1::a00:1',
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '2002:c0a8:0101:1::5',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
    ];
    const open = [
      '203.0.113.10',
      '8.8.8.8',
      '172.32.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '::8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    ];
    expect(blocked.filter((address) => !isPrivateAddress(address))).toEqual([]);
    expect(open.filter((address) => isPrivateAddress(address))).toEqual([]);
  });

  it('refuses to send to a private address, by literal or by a name that resolves to one, unless allowed', async () => {
    const port = new URL(receiver.url).port;
    expect(await send(`http://127.0.0.1:${port}/a`, false)).toMatchObject({ kind: 'failed', code: 'BLOCKED_PRIVATE_ADDRESS' });
    expect(await send(`http://localhost:${port}/b`, false)).toMatchObject({ kind: 'failed', code: 'BLOCKED_PRIVATE_ADDRESS' });
    expect(receiver.received).toHaveLength(0);
    expect(await send(`http://127.0.0.1:${port}/c`, true)).toMatchObject({ kind: 'answered', status: 200, excerpt: 'answer 200' });
    expect(receiver.received).toHaveLength(1);
  });
});

describe('requests', () => {
  it('gives up on a receiver that does not answer within the timeout', async () => {
    receiver.script('/hang', ['hang']);
    expect(await send(`${receiver.url}/hang`, true, 200)).toMatchObject({ kind: 'failed', code: 'ETIMEDOUT' });
  });

  it('follows redirects, as Ghost does, with the same body and headers', async () => {
    receiver.script('/moved', [{ status: 301, location: '/moved-again' }]);
    receiver.script('/moved-again', [{ status: 307, location: `${receiver.url}/landed` }]);
    const result = await postWebhook({ url: `${receiver.url}/moved`, body: '{"a":1}', secret: 's', timeoutMs: 2000, allowPrivate: true, now: 1 });
    expect(result).toMatchObject({ kind: 'answered', status: 200 });
    const landed = receiver.on('/landed');
    expect(landed).toHaveLength(1);
    expect(landed[0]!.body).toBe('{"a":1}');
    expect(landed[0]!.headers['x-ghost-signature']).toMatch(/^sha256=[0-9a-f]{64}, t=1$/);
  });

  it('fails a redirect loop after ten redirects, as Ghost does, rather than recording it delivered', async () => {
    receiver.script('/loop', [{ status: 302, location: '/loop' }]);
    expect(await send(`${receiver.url}/loop`, true)).toMatchObject({ kind: 'failed', code: 'ERR_TOO_MANY_REDIRECTS' });
    // The first request and ten redirects followed.
    expect(receiver.on('/loop')).toHaveLength(11);
  });

  it('speaks TLS to an https target: a receiver answering plain HTTP fails the handshake and is not delivered to', async () => {
    const port = new URL(receiver.url).port;
    const result = await send(`https://127.0.0.1:${port}/tls`, true);
    expect(result).toMatchObject({ kind: 'failed' });
    expect((result as { code: string }).code).toMatch(/^(EPROTO|ERR_SSL_)/);
    expect(receiver.on('/tls')).toHaveLength(0);
  });

  it('fails a target that is not an http(s) URL without sending', async () => {
    expect(await send('ftp://example.com/x', true)).toMatchObject({ kind: 'failed', code: 'URL_MISSING_INVALID' });
    expect(await send('/relative', true)).toMatchObject({ kind: 'failed', code: 'URL_MISSING_INVALID' });
  });
});

it('backs off exponentially with jitter, capped at an hour', () => {
  expect(backoffMs(1000, 1, () => 0)).toBe(500);
  expect(backoffMs(1000, 1, () => 1)).toBe(1000);
  expect(backoffMs(1000, 4, () => 1)).toBe(8000);
  expect(backoffMs(1000, 40, () => 1)).toBe(3_600_000);
});
