import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, bootstrap, startTestApp, adminAuth, type TestApp } from './support.js';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

it('boots, sets up and answers with an admin key', async () => {
  const { adminKey } = await bootstrap(t.app);
  const res = await t.app.inject({ url: `${ADMIN}/integrations/`, headers: adminAuth(adminKey) });
  expect(res.statusCode).toBe(501);
  const site = await t.app.inject({ url: `${ADMIN}/site/`, headers: adminAuth(adminKey) });
  expect(site.json().site.title).toBe('Test Site');
});
