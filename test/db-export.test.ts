import { readdir, readFile, stat } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestSite, withTestSite, type TestSite } from './test-site.js';
import { OWNER, expectGhostError } from './support.js';
import { zipOf, image } from './uploads.js';
import { PEER_EXPORT_MEMBERS, dataOf, importJson, type ExportData, type Row } from './db-support.js';

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

/** Rows with ids replaced by what they name (slugs, e-mails, uuids), so two sites' exports compare. */
function comparable(data: ExportData): Record<string, unknown[]> {
  const name = (table: string, key: string) => new Map(data[table]!.map((row) => [row.id, row[key]]));
  const post = name('posts', 'uuid');
  const tag = name('tags', 'slug');
  const user = name('users', 'email');
  const tier = name('products', 'slug');
  const newsletter = name('newsletters', 'slug');
  const member = name('members', 'email');
  const label = name('labels', 'slug');
  const role = name('roles', 'name');
  const importTag = (id: unknown) => String(tag.get(id)).startsWith('hash-import-');
  const strip = ({ id: _id, ...row }: Row) => row;
  const sorted = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();
  return {
    posts: sorted(data.posts!.map((row) => ({ ...strip(row), newsletter_id: newsletter.get(row.newsletter_id) ?? null }))),
    posts_meta: sorted(data.posts_meta!.map((row) => ({ ...strip(row), post_id: post.get(row.post_id) }))),
    posts_tags: sorted(
      data.posts_tags!.filter((row) => !importTag(row.tag_id)).map((row) => ({ ...strip(row), post_id: post.get(row.post_id), tag_id: tag.get(row.tag_id) })),
    ),
    posts_authors: sorted(data.posts_authors!.map((row) => ({ ...strip(row), post_id: post.get(row.post_id), author_id: user.get(row.author_id) }))),
    posts_products: sorted(data.posts_products!.map((row) => ({ ...strip(row), post_id: post.get(row.post_id), product_id: tier.get(row.product_id) }))),
    tags: sorted(data.tags!.filter((row) => !importTag(row.id)).map(strip)),
    // Each site keeps its own Owner (the file's, with the same e-mail, is matched with it).
    users: sorted(data.users!.filter((row) => row.email !== OWNER.email).map(strip)),
    roles_users: sorted(data.roles_users!.map((row) => ({ user: user.get(row.user_id), role: role.get(row.role_id) }))),
    // The free tier, the default tier and newsletter are each site's own (matched by slug): compared without their timestamps.
    products: sorted(data.products!.map(({ created_at: _c, updated_at: _u, ...row }) => strip(row))),
    newsletters: sorted(data.newsletters!.map(({ uuid: _uuid, created_at: _c, updated_at: _u, ...row }) => strip(row))),
    members: sorted(data.members!.map(({ transient_id: _transient, ...row }) => strip(row))),
    labels: sorted(data.labels!.map(strip)),
    members_labels: sorted(data.members_labels!.map((row) => ({ ...strip(row), member_id: member.get(row.member_id), label_id: label.get(row.label_id) }))),
    members_newsletters: sorted(
      data.members_newsletters!.map((row) => ({ member_id: member.get(row.member_id), newsletter_id: newsletter.get(row.newsletter_id) })),
    ),
    members_products: sorted(
      data.members_products!.map((row) => ({ ...strip(row), member_id: member.get(row.member_id), product_id: tier.get(row.product_id) })),
    ),
    settings: sorted(data.settings!.filter((row) => !['core', 'theme'].includes(row.group as string)).map(({ key, value }) => ({ key, value }))),
  };
}

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
