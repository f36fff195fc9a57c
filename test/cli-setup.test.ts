import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import GhostAdminAPI from '@tryghost/admin-api';
import GhostContentAPI from '@tryghost/content-api';
import { runSetup, SetupConflict } from '../src/cli-setup.js';
import { parseConfig, type Config } from '../src/config.js';
import { connect, type Connection } from '../src/db/connect.js';
import { buildApp } from '../src/app.js';
import { ADMIN, CONTENT, ORIGIN, SITE_URL, adminAuth, createTestDatabase, type TestDatabase } from './support.js';

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

it('sets up a fresh site and prints values both SDKs take; a second run reuses the integration and says what it left', async () => {
  const first = await runSetup(config, { name: 'Script Owner', email: 'script@example.com', title: 'Scripted', integration: 'Deploy' });
  const keys = values(first.values);
  expect(Object.keys(keys)).toEqual(['OWNER_EMAIL', 'OWNER_PASSWORD', 'ADMIN_KEY', 'CONTENT_KEY', 'ADMIN_API_URL', 'CONTENT_API_URL', 'ADMIN_URL']);
  expect(keys.ADMIN_URL).toBe(`${SITE_URL}ghost/`);
  expect(keys.ADMIN_KEY).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
  // SITE_URL ends with a slash; the SDKs refuse one ("must not have a trailing slash").
  expect(SITE_URL.endsWith('/')).toBe(true);
  expect(keys.ADMIN_API_URL).toBe(SITE_URL.replace(/\/$/, ''));
  expect(() => new GhostAdminAPI({ url: keys.ADMIN_API_URL, key: keys.ADMIN_KEY, version: 'v5.0' })).not.toThrow();
  expect(() => new GhostContentAPI({ url: keys.CONTENT_API_URL, key: keys.CONTENT_KEY, version: 'v5.0' })).not.toThrow();
  expect(first.notes).toEqual([
    'set up the site "Scripted" with the owner script@example.com (a random password, printed below)',
    'created the integration "Deploy"',
  ]);

  const again = await runSetup(config, { name: 'Ignored', password: 'Never-used-here-1', title: 'Ignored', integration: 'Deploy' });
  expect(again.values).toEqual(first.values.filter((line) => !line.startsWith('OWNER_')));
  expect(again.notes).toEqual([
    'the site was already set up: the owner script@example.com was left as it was (--name, --password, --title not applied)',
    'reused the integration "Deploy": its keys are unchanged',
  ]);
  // The owner's own address is no conflict (in any case); another integration name makes one.
  const second = await runSetup(config, { email: 'Script@Example.com', integration: 'Second' });
  expect(second.notes).toEqual(['the site was already set up: the owner script@example.com was left as it was', 'created the integration "Second"']);
  const secondKeys = values(second.values);
  expect(secondKeys.ADMIN_KEY).not.toBe(keys.ADMIN_KEY);

  const connection: Connection = connect(config.databaseUrl, { poolSize: 2 });
  const app = await buildApp({ config, connection });
  try {
    const integrations = await connection.db.selectFrom('integrations').select('name').where('type', '=', 'custom').execute();
    expect(integrations.map((row) => row.name).sort()).toEqual(['Deploy', 'Second']);
    const users = await app.inject({ url: `${ADMIN}/users/`, headers: adminAuth(keys.ADMIN_KEY!) });
    expect(users.statusCode).toBe(200);
    expect(users.json().users.map((u: { email: string }) => u.email)).toEqual(['script@example.com']);
    expect((await app.inject({ url: `${ADMIN}/users/`, headers: adminAuth(secondKeys.ADMIN_KEY!) })).statusCode).toBe(200);
    expect((await app.inject({ url: `${CONTENT}/posts/?key=${keys.CONTENT_KEY}` })).statusCode).toBe(200);
    expect((await app.inject({ url: `${ADMIN}/site/` })).json().site.title).toBe('Scripted');
    const login = await app.inject({
      method: 'POST',
      url: `${ADMIN}/session/`,
      headers: { origin: ORIGIN },
      payload: { username: 'script@example.com', password: keys.OWNER_PASSWORD },
    });
    expect(login.statusCode).toBe(201);
  } finally {
    await app.close();
    await connection.close();
  }
});

it('refuses an --email that is not the owner’s on a set-up site, and changes nothing', async () => {
  const count = async () => {
    const connection = connect(config.databaseUrl, { poolSize: 1 });
    try {
      return (await connection.db.selectFrom('integrations').select('id').execute()).length;
    } finally {
      await connection.close();
    }
  };
  const before = await count();
  const refused = runSetup(config, { email: 'someone.else@example.com', integration: 'Never made' });
  await expect(refused).rejects.toBeInstanceOf(SetupConflict);
  await expect(refused).rejects.toThrow(
    /^the site is already set up and its owner is script@example\.com, not someone\.else@example\.com: nothing was changed\. Run setup without --email/,
  );
  expect(await count()).toBe(before);
});
