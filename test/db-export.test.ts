import { readdir, readFile, stat } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestSite, withTestSite, type TestSite } from './test-site.js';
import { expectGhostError } from './support.js';
import { zipOf, image } from './uploads.js';
import { PEER_EXPORT_MEMBERS, comparable, dataOf, importJson, type ExportData } from './db-support.js';

/** `GET /db/` writes Ghost's format; what it writes imports into a fresh site and exports again the same. */
const t = useTestSite();
const peer = dataOf(PEER_EXPORT_MEMBERS);
const MEMBER_TABLES = 'members,labels,members_labels,members_newsletters,members_products';

beforeAll(async () => {
  const res = await importJson(t, PEER_EXPORT_MEMBERS);
  expect(res.statusCode, res.body).toBe(200);
});

async function exportOf(site: TestSite): Promise<ExportData> {
  const res = await site.admin.get(`/db/?include=${MEMBER_TABLES}`);
  expect(res.statusCode, res.body).toBe(200);
  return dataOf(res.body);
}

describe('GET /db/', () => {
  it('is an attachment named as Ghost names it, with Ghost’s tables and columns in Ghost’s order', async () => {
    const res = await t.admin.get(`/db/?include=${MEMBER_TABLES}`);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^Attachment; filename="peer-site\.ghost\.\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.json"$/);
    const [document] = res.json().db;
    expect(Object.keys(document.meta)).toEqual(['exported_on', 'version']);
    expect(document.meta.version).toBe('5.130.6');
    const data = document.data as ExportData;
    expect(Object.keys(data)).toEqual(Object.keys(peer));
    for (const [table, rows] of Object.entries(peer)) {
      if (rows.length === 0 || data[table]!.length === 0) continue;
      expect(Object.keys(data[table]![0]!), table).toEqual(Object.keys(rows[0]!));
    }
    // Booleans as Ghost's tinyint columns give them; no authorship columns (Ghost's output serializer drops them).
    expect(data.posts!.every((post) => post.featured === 0 || post.featured === 1)).toBe(true);
    expect(JSON.stringify(data)).not.toMatch(/"(created|updated|published)_by"/);
  });

  it('leaves out the settings Ghost leaves out, and the site’s own secrets', async () => {
    const keys = (await exportOf(t)).settings!.map((setting) => setting.key);
    expect(keys).toContain('title');
    for (const key of ['stripe_secret_key', 'members_stripe_webhook_secret', 'admin_session_secret', 'ghost_private_key', 'members_private_key']) {
      expect(keys).not.toContain(key);
    }
  });

  it('without include has no members', async () => {
    const data = dataOf((await t.admin.get('/db/')).body);
    expect(data.members).toBeUndefined();
    expect(data.posts!.length).toBeGreaterThan(0);
  });
});

describe('round trip', () => {
  it('export → import into a fresh site (its content deleted first) → export gives the same data', async () => {
    const first = await exportOf(t);
    const second = await withTestSite(async (fresh) => {
      expect((await fresh.admin.del('/db/')).statusCode).toBe(204);
      const res = await importJson(fresh, JSON.stringify({ db: [{ meta: { version: '5.130.6' }, data: first }] }));
      expect(res.statusCode, res.body).toBe(200);
      return exportOf(fresh);
    });
    const [a, b] = [comparable(first), comparable(second)];
    for (const table of Object.keys(a)) expect(b[table], table).toEqual(a[table]);
  });
});

describe('POST /db/backup/ and GET /db/?filename=', () => {
  it('writes the export under content/data, returns its path, and reads it back', async () => {
    const res = await t.admin.post('/db/backup/?filename=before-upgrade');
    expect(res.statusCode, res.body).toBe(200);
    const { filename } = res.json().db[0];
    expect(filename).toBe(`${t.config.contentDir}/data/before-upgrade.json`);
    expect((await stat(filename)).mode & 0o077).toBe(0);
    const backup = JSON.parse(await readFile(filename, 'utf8'));
    expect(Object.keys(backup)).toEqual(['meta', 'data']);
    // Backups keep the authorship columns Ghost's API answers leave out.
    expect(backup.data.posts[0]).toHaveProperty('created_by');
    const read = await t.admin.get('/db/?filename=before-upgrade.json');
    expect(read.statusCode).toBe(200);
    expect(read.json().db[0]).toEqual(backup);
    // Only backups: the other files of content/data (the secrets key, the SQLite database) are not read.
    expect((await t.admin.get('/db/?filename=../secrets.key')).statusCode).toBe(404);
    expect((await t.admin.get('/db/?filename=secrets.key')).statusCode).toBe(404);
  });
});

describe('DELETE /db/', () => {
  it('removes every post, page and tag, keeps users, members and settings, after a backup', async () => {
    const users = (await t.admin.get('/users/')).json().users.length;
    const members = (await t.admin.get('/members/')).json().members.length;
    const res = await t.admin.del('/db/');
    expect(res.statusCode).toBe(204);
    expect(res.headers['x-cache-invalidate']).toBe('/*');
    for (const table of ['posts', 'tags', 'posts_tags', 'posts_authors', 'posts_meta'] as const) {
      expect(await t.db.selectFrom(table).select('id').execute(), table).toEqual([]);
    }
    expect((await t.admin.get('/users/')).json().users.length).toBe(users);
    expect((await t.admin.get('/members/')).json().members.length).toBe(members);
    const backups = (await readdir(`${t.config.contentDir}/data`)).filter((file) => /^peer-site\.ghost\.[\d-]+\.json$/.test(file));
    expect(backups.length).toBeGreaterThan(0);
  });
});

describe('POST /db/ with a zip', () => {
  it('imports the json and stores the images under their paths', async () => {
    const json = JSON.stringify({
      db: [
        {
          meta: { version: '4.48.0' },
          data: { posts: [{ id: 'p1', title: 'Zipped', slug: 'zipped', mobiledoc: null, html: '<p>From a zip</p>', status: 'published' }] },
        },
      ],
    });
    const zip = await zipOf([
      { name: 'export/site.json', data: json },
      { name: 'export/content/images/2026/02/zipped.png', data: await image(4, 4, 'png') },
    ]);
    const res = await t.admin.upload('/db/', { importfile: { name: 'site.zip', type: 'application/zip', data: zip } });
    expect(res.statusCode, res.body).toBe(200);
    const post = (await t.admin.get('/posts/slug/zipped/?formats=html,mobiledoc')).json().posts[0];
    expect(post.html).toBe('<p>From a zip</p>');
    expect(JSON.parse(post.mobiledoc).sections.length).toBeGreaterThan(0);
    expect((await t.file('/content/images/2026/02/zipped.png')).statusCode).toBe(200);
  });

  it('refuses entries that would leave their folder', async () => {
    const zip = await zipOf(
      [
        { name: 'site.json', data: '{}' },
        { name: 'images/aa/x.png', data: 'x' },
      ],
      { 'images/aa/x.png': 'images/../x.png' },
    );
    const res = await t.admin.upload('/db/', { importfile: { name: 'site.zip', type: 'application/zip', data: zip } });
    expectGhostError(res, { status: 415, type: 'UnsupportedMediaTypeError', message: 'Invalid zip file structure.' });
  });
});
