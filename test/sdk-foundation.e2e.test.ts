import { beforeAll, expect, it } from 'vitest';
import GhostAdminAPI from '@tryghost/admin-api';
import { ADMIN, OWNER } from './support.js';
import { useTestSite } from './test-site.js';

// Against a listening server, as a real client sees it: setup, login, integration, then the official SDK.
const t = useTestSite({ setup: 'none' });
let base: string;
beforeAll(async () => {
  base = await t.listen();
});

async function http(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}${ADMIN}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: base, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

it('sets up, logs in, creates an integration and reads /site/ with the official Admin API SDK', async () => {
  expect((await http('POST', '/authentication/setup/', { setup: [OWNER] })).status).toBe(201);

  const login = await http('POST', '/session/', { username: OWNER.email, password: OWNER.password });
  expect(login.status).toBe(201);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

  const created = await http('POST', '/integrations/?include=api_keys', { integrations: [{ name: 'SDK' }] }, { cookie });
  expect(created.status).toBe(201);
  const { integrations } = await created.json();
  const adminKey = integrations[0].api_keys.find((k: { type: string }) => k.type === 'admin').secret;

  const api = new GhostAdminAPI({ url: base, key: adminKey, version: 'v5.0' });
  const site = await api.site.read();
  expect(site).toMatchObject({ title: OWNER.blogTitle, version: '5.130', url: 'http://127.0.0.1:2368/' });

  // Bad keys through the SDK surface Ghost's error type and message.
  const [keyId] = adminKey.split(':');
  const wrongSecret = new GhostAdminAPI({ url: base, key: `${keyId}:${'00'.repeat(32)}`, version: 'v5.0' });
  await expect(wrongSecret.users.browse()).rejects.toMatchObject({ type: 'UnauthorizedError', message: 'Invalid token: invalid signature' });
  const unknownKey = new GhostAdminAPI({ url: base, key: `${'0'.repeat(24)}:${'00'.repeat(32)}`, version: 'v5.0' });
  await expect(unknownKey.users.browse()).rejects.toMatchObject({ type: 'UnauthorizedError', message: 'Unknown Admin API Key' });
  expect((await api.users.browse()).map((user: { email: string }) => user.email)).toEqual([OWNER.email]);

  // A cookie request from a foreign Origin is refused.
  const foreign = await fetch(`${base}${ADMIN}/session/`, { headers: { cookie, origin: 'http://evil.example' } });
  expect(foreign.status).toBe(400);
  expect((await foreign.json()).errors[0].message).toBe(`Request made from incorrect origin. Expected '${base}' received 'http://evil.example'.`);
});
