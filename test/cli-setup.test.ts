import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSetup } from '../src/cli-setup.js';
import { parseConfig, type Config } from '../src/config.js';
import { connect, type Connection } from '../src/db/connect.js';
import { buildApp } from '../src/app.js';
import { ADMIN, CONTENT, ORIGIN, SITE_URL, adminAuth, createTestDatabase, ghostError, type TestDatabase } from './support.js';

let database: TestDatabase;
let config: Config;
beforeAll(async () => {
  database = await createTestDatabase();
  config = parseConfig({
    SITE_URL,
    DATABASE_URL: database.url,
    CONTENT_DIR: mkdtempSync(path.join(tmpdir(), 'quire-cli-')),
    STAFF_DEVICE_VERIFICATION: 'false',
  });
});
afterAll(async () => database.drop());

const values = (lines: string[]) => Object.fromEntries(lines.map((line) => line.split(/=(.*)/s).slice(0, 2)));

it('sets up a fresh site and prints working keys; a second run only adds an integration', async () => {
  const first = values(await runSetup(config, { name: 'Script Owner', email: 'script@example.com', title: 'Scripted', integration: 'Deploy' }));
  expect(Object.keys(first)).toEqual(['OWNER_EMAIL', 'OWNER_PASSWORD', 'ADMIN_KEY', 'CONTENT_KEY', 'ADMIN_API_URL', 'ADMIN_URL']);
  expect(first.ADMIN_URL).toBe(`${config.siteUrl}ghost/`);
  expect(first.ADMIN_KEY).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);

  const again = values(
    await runSetup(config, { name: 'Ignored', email: 'ignored@example.com', password: 'Never-used-here-1', title: 'Ignored', integration: 'Second' }),
  );
  expect(Object.keys(again)).toEqual(['ADMIN_KEY', 'CONTENT_KEY', 'ADMIN_API_URL', 'ADMIN_URL']);

  const connection: Connection = connect(config.databaseUrl, { poolSize: 2 });
  const app = await buildApp({ config, connection });
  try {
    const users = await app.inject({ url: `${ADMIN}/users/`, headers: adminAuth(first.ADMIN_KEY!) });
    expect(users.statusCode).toBe(200);
    expect(users.json().users.map((u: { email: string }) => u.email)).toEqual(['script@example.com']);
    expect((await app.inject({ url: `${ADMIN}/users/`, headers: adminAuth(again.ADMIN_KEY!) })).statusCode).toBe(200);
    expect((await app.inject({ url: `${CONTENT}/posts/?key=${first.CONTENT_KEY}` })).statusCode).toBe(200);
    expect((await app.inject({ url: `${ADMIN}/site/` })).json().site.title).toBe('Scripted');
    const login = await app.inject({
      method: 'POST',
      url: `${ADMIN}/session/`,
      headers: { origin: ORIGIN },
      payload: { username: 'script@example.com', password: first.OWNER_PASSWORD },
    });
    expect(login.statusCode).toBe(201);
    const refused = await app.inject({
      method: 'POST',
      url: `${ADMIN}/session/`,
      headers: { origin: ORIGIN },
      payload: { username: 'ignored@example.com', password: 'Never-used-here-1' },
    });
    expect(ghostError(refused).message).toBe('There is no user with that email address.');
  } finally {
    await app.close();
    await connection.close();
  }
});
