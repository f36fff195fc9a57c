import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport, runImport } from '../src/cli-db.js';
import { useTestSite, withTestSite, type TestSite } from './test-site.js';
import { installTheme, THEMES_DIR } from './site/site-support.js';
import { GHOST6_EXPORT, comparable, dataOf, importJson, type ExportData, type Row } from './db-support.js';

/**
 * `quire export --file F.zip` writes Ghost 6's archive of the site, which a fresh Quire imports whole: the move
 * keeps the rows (members, benefits, offers, snippets, custom theme settings), routes.yaml, the redirects file
 * and the uploaded themes.
 */
const t = useTestSite();
const ROUTES =
  'routes:\n  /featured/:\n    controller: channel\n    filter: featured:true\ncollections:\n  /:\n    permalink: /{year}/{slug}/\ntaxonomies:\n  tag: /topic/{slug}/\n  author: /author/{slug}/\n';
const REDIRECTS = '301:\n  /old-path/: /new-path/\n302:\n  ^/temp/(.*)$: /later/$1\n';
const ENTRIES = ['export.json', 'redirects.yaml', 'routes.yaml', 'themes/Field-Casper.zip', 'themes/source.zip'];

let folder: string;
let archive: string;
beforeAll(async () => {
  expect((await importJson(t, GHOST6_EXPORT)).statusCode).toBe(200);
  await installTheme(t, 'source'); // active: the file's custom theme settings are Source's
  const casper = await readFile(path.join(THEMES_DIR, 'casper.zip'));
  const uploaded = await t.admin.upload('/themes/upload/', { file: { name: 'Field Casper.zip', type: 'application/zip', data: casper } });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const file = (field: string, name: string, text: string) => ({ [field]: { name, type: 'application/octet-stream', data: Buffer.from(text) } });
  expect((await t.admin.upload('/settings/routes/yaml/', file('routes', 'routes.yaml', ROUTES))).statusCode).toBe(200);
  expect((await t.admin.upload('/redirects/upload/', file('redirects', 'redirects.yaml', REDIRECTS))).statusCode).toBe(200);
  folder = await mkdtemp(path.join(tmpdir(), 'quire-export-archive-'));
  archive = path.join(folder, 'site.zip');
  expect(await runExport(t.config, archive)).toEqual([expect.stringMatching(/^exported to .*site\.zip \(\d+ bytes\)$/)]);
}, 120_000);
afterAll(async () => rm(folder, { recursive: true, force: true }));

const open = promisify<Buffer, yauzl.Options, ZipFile>(yauzl.fromBuffer);

/** A zip's files by name, read whole. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await open(bytes, { lazyEntries: true });
  const openEntry = promisify(zip.openReadStream.bind(zip)) as (entry: Entry) => Promise<NodeJS.ReadableStream>;
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      void openEntry(entry)
        .then(async (stream) => {
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        })
        .catch(reject);
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

/** An archive's parts in a form two sites' archives compare in: rows without ids and times, themes by their files. */
async function contentsOf(file: string) {
  const files = await unzip(await readFile(file));
  const data = dataOf(files.get('export.json')!.toString('utf8'));
  const themes: Record<string, Record<string, string>> = {};
  for (const [name, bytes] of files) {
    if (!name.startsWith('themes/')) continue;
    const inner = await unzip(bytes);
    themes[name] = Object.fromEntries([...inner].map(([entry, content]) => [entry, content.toString('base64')]).sort());
  }
  return {
    names: [...files.keys()].sort(),
    data,
    rows: { ...comparable(data), custom_theme_settings: customThemeSettings(data) } as Record<string, unknown[]>,
    routes: files.get('routes.yaml')?.toString('utf8'),
    redirects: files.get('redirects.yaml')?.toString('utf8'),
    themes,
  };
}

const customThemeSettings = (data: ExportData) => data.custom_theme_settings!.map(({ id: _id, ...row }) => JSON.stringify(row)).sort();

const themeSettings = async (site: TestSite) =>
  ((await site.admin.get('/custom_theme_settings/')).json().custom_theme_settings as Row[]).map(({ id: _id, ...setting }) => setting);

const themeList = async (site: TestSite) =>
  ((await site.admin.get('/themes/')).json().themes as Row[]).map(({ name, active, package: pkg }) => ({ name, active, pkg }));

describe('quire export --file F.zip', () => {
  it("writes Ghost 6's archive: the JSON export with members, routes.yaml, the redirects file and the uploaded themes", async () => {
    const first = await contentsOf(archive);
    // Quire's own theme is not written: every install has it.
    expect(first.names).toEqual(ENTRIES);
    expect(first.routes).toBe(ROUTES);
    expect(first.redirects).toBe(REDIRECTS);
    expect(first.data.members!.length).toBeGreaterThan(0);
    expect(first.data.offers!.length).toBeGreaterThan(0);
    expect(first.data.snippets!.length).toBeGreaterThan(0);
    expect(first.data.benefits!.length).toBeGreaterThan(0);
    expect(first.data.custom_theme_settings!.filter((row) => row.theme === 'source').length).toBeGreaterThan(0);
    // The JSON is what GET /db/ answers with the member tables.
    const answered = dataOf((await t.admin.get('/db/?include=members,labels,members_labels,members_newsletters,members_products')).body);
    expect(first.data).toEqual(answered);
    // Each theme as GET /themes/:name/download/ gives it.
    const download = await unzip((await t.admin.get('/themes/Field-Casper/download/')).rawPayload);
    expect(Object.keys(first.themes['themes/Field-Casper.zip']!).sort()).toEqual([...download.keys()].sort());
    expect(await readdir(folder)).toEqual(['site.zip']);
  });

  it('imports into a fresh Quire through POST /db/, which then exports the same archive, modulo ids and times', async () => {
    const first = await contentsOf(archive);
    const second = await withTestSite(async (fresh) => {
      const res = await fresh.admin.upload('/db/', { importfile: { name: 'site.zip', type: 'application/zip', data: await readFile(archive) } });
      expect(res.statusCode, res.body).toBe(200);
      const problems = res.json().problems as Row[];
      expect(problems.filter((p) => p.help === 'Themes' || p.help === 'Archive')).toEqual([]);

      expect((await fresh.admin.get('/settings/routes/yaml/')).body).toBe(ROUTES);
      expect((await fresh.admin.get('/redirects/download/')).body).toBe(REDIRECTS);
      expect(await themeList(fresh)).toEqual(await themeList(t));
      expect(await themeSettings(fresh)).toEqual(await themeSettings(t));
      const moved = await fresh.app.inject({ url: '/old-path/' });
      expect([moved.statusCode, moved.headers.location]).toEqual([301, '/new-path/']);

      const again = path.join(folder, 'again.zip');
      await runExport(fresh.config, again);
      try {
        return await contentsOf(again);
      } finally {
        await rm(again);
      }
    });
    expect(second.names).toEqual(first.names);
    for (const table of Object.keys(first.rows)) expect(second.rows[table], table).toEqual(first.rows[table]);
    expect([second.routes, second.redirects]).toEqual([first.routes, first.redirects]);
    expect(second.themes).toEqual(first.themes);
  });

  it('imports into a fresh Quire through quire import', async () => {
    await withTestSite(async (fresh) => {
      const lines = await runImport(fresh.config, archive);
      const file = (await contentsOf(archive)).data;
      expect(lines).toEqual(expect.arrayContaining([`imported members: ${file.members!.length}`, `imported offers: ${file.offers!.length}`]));
      expect(lines.filter((line) => /\((Themes|Archive)\)/.test(line))).toEqual([]);
      expect((await fresh.admin.get('/settings/routes/yaml/')).body).toBe(ROUTES);
      expect((await fresh.admin.get('/redirects/download/')).body).toBe(REDIRECTS);
      expect(await themeList(fresh)).toEqual(await themeList(t));
    });
  });

  it('leaves out routes.yaml and the redirects file when the site has none uploaded; keeps a JSON redirects file as JSON', async () => {
    await withTestSite(async (fresh) => {
      const file = path.join(folder, 'plain.zip');
      await runExport(fresh.config, file);
      expect((await contentsOf(file)).names).toEqual(['export.json']);
      const rules = [{ from: '^/old/(.*)$', to: '/new/$1', permanent: false }];
      const part = { redirects: { name: 'redirects.json', type: 'application/json', data: Buffer.from(JSON.stringify(rules, null, 2)) } };
      expect((await fresh.admin.upload('/redirects/upload/', part)).statusCode).toBe(200);
      await runExport(fresh.config, file);
      const files = await unzip(await readFile(file));
      expect([...files.keys()].sort()).toEqual(['export.json', 'redirects.json']);
      expect(files.get('redirects.json')!.toString('utf8')).toBe((await fresh.admin.get('/redirects/download/')).body);
      await rm(file);
    });
  });

  it('leaves neither the file nor a partial one when the write fails, for .zip and .json alike', async () => {
    // The target is a folder: everything is written, the rename fails.
    const taken = path.join(folder, 'taken.zip');
    await mkdir(taken);
    await writeFile(path.join(taken, 'keep'), 'x');
    await expect(runExport(t.config, taken)).rejects.toThrow();
    // The database fails half-way through the export (a table it reads is gone).
    await withTestSite(async (broken) => {
      await sql`DROP TABLE snippets`.execute(broken.db);
      for (const name of ['broken.zip', 'broken.json']) await expect(runExport(broken.config, path.join(folder, name)), name).rejects.toThrow(/snippets/);
    });
    expect((await readdir(folder)).sort()).toEqual(['site.zip', 'taken.zip']);
    await rm(taken, { recursive: true });
  });
});
