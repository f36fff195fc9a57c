import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSetup } from '../src/cli-setup.js';
import { runBackup, runExport, runImport } from '../src/cli-db.js';
import { ServerBackupAdvice } from '../src/db/backup.js';
import { parseConfig, type Config } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { SITE_URL, createTestDatabase, type TestDatabase } from './support.js';
import { PEER_EXPORT_MEMBERS, dataOf } from './db-support.js';

/** `quire import`, `quire export` and `quire backup` against the configured database. */
let database: TestDatabase;
let config: Config;
let folder: string;
beforeAll(async () => {
  database = await createTestDatabase();
  folder = mkdtempSync(path.join(tmpdir(), 'quire-db-cli-'));
  config = parseConfig({ SITE_URL, DATABASE_URL: database.url, CONTENT_DIR: folder, STAFF_DEVICE_VERIFICATION: 'false' });
  await runSetup(config, { name: 'Owner Person', email: 'owner@example.com', title: 'CLI Site', integration: 'CLI' });
});
afterAll(async () => database.drop());

it('imports a Ghost export from a file and exports the site, members included, to a file', async () => {
  const lines = await runImport(config, path.join(import.meta.dirname, 'fixtures/db/peer-export-members.json'));
  const peer = dataOf(PEER_EXPORT_MEMBERS);
  expect(lines).toContain(`imported posts: ${peer.posts!.length}`);
  expect(lines).toContain(`imported members: ${peer.members!.length}`);
  expect(lines.some((line) => line.startsWith('skipped (User): Entry was not imported and ignored. Detected duplicated entry.'))).toBe(true);

  const file = path.join(folder, 'site.json');
  expect(await runExport(config, file)).toEqual([expect.stringMatching(/^exported to .*site\.json \(\d+ bytes\)$/)]);
  const exported = dataOf(await readFile(file, 'utf8'));
  const uuids = new Set(exported.posts!.map((post) => post.uuid));
  for (const post of peer.posts!) expect(uuids.has(post.uuid), post.slug as string).toBe(true);
  expect(exported.members!.map((member) => member.email).sort()).toEqual(peer.members!.map((member) => member.email).sort());
});

it('backs up the embedded database online, or says how for a database server', async () => {
  const file = path.join(folder, 'copy.db');
  if (!config.databaseUrl.startsWith('sqlite:')) {
    const advice = runBackup(config, file);
    await expect(advice).rejects.toBeInstanceOf(ServerBackupAdvice);
    await expect(advice).rejects.toThrow(/pg_dump|mysqldump/);
    return;
  }
  expect(await runBackup(config, file)).toEqual([`database copied to ${file}`]);
  const copy = connect(`sqlite:${file}`);
  try {
    const live = connect(config.databaseUrl);
    const [a, b] = await Promise.all([
      copy.db.selectFrom('posts').select('uuid').orderBy('uuid').execute(),
      live.db.selectFrom('posts').select('uuid').orderBy('uuid').execute(),
    ]);
    await live.close();
    expect(a.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
  } finally {
    await copy.close();
  }
});
