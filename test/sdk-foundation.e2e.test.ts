import { afterAll, beforeAll, expect, it } from 'vitest';
import GhostAdminAPI from '@tryghost/admin-api';
import { ADMIN, OWNER, startTestApp, type TestApp } from './support.js';

// Against a listening server, as a real client sees it: setup, login, integration, then the official SDK.
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => t.close());

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

  // A cookie request from a foreign Origin is refused.
  const foreign = await fetch(`${base}${ADMIN}/session/`, { headers: { cookie, origin: 'http://evil.example' } });
  expect(foreign.status).toBe(400);
  expect((await foreign.json()).errors[0].message).toBe(`Request made from incorrect origin. Expected '${base}' received 'http://evil.example'.`);
});
