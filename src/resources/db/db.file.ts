import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { readZipDirectory } from '../themes/theme-zip.js';
import type { Readable } from 'node:stream';
import type { Storage } from '../../storage/storage.js';
import { checkKey } from '../../storage/storage.js';
import { errors } from '../../errors.js';
import { extensionOf, temporaryFolder, type UploadedFile, type UploadKind } from '../../http/upload.js';
import { IMAGE_UPLOAD } from '../images/images.types.js';
import type { GhostExport, ImportArchive } from './db.import-run.js';
import { EXPORT_VERSION } from './db.export.js';

/** What `POST /db/` accepts (Ghost's `db` upload kind: its JSON and zip handlers). */
export const DB_UPLOAD: UploadKind = {
  extensions: ['.json', '.zip'],
  contentTypes: ['application/octet-stream', 'application/json', 'application/zip', 'application/x-zip-compressed'],
  missing: 'Please select a database file to import.',
  invalid: 'Unsupported file. Please try any of the following formats: .json,.zip',
};

/** Bounds on a zip, checked on its directory before anything is unpacked. */
const ZIP_LIMITS = { entries: 20_000, bytes: 2 * 1024 * 1024 * 1024 };
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const IGNORED = /(^|\/)(__MACOSX|\.DS_Store|Thumbs\.db)(\/|$)/;
const open = promisify<string, yauzl.Options, ZipFile>(yauzl.open);
/** A theme zip of an archive is held in memory until it is installed: larger ones are listed as not imported. */
const THEME_ZIP_BYTES = 64 * 1024 * 1024;
/** Ghost 6's archive entries beside `export.json`, and why the ones this site does not read are left. */
const ARCHIVE_REASONS: Record<string, string> = {
  'post-analytics.csv': "Post analytics are the old site's statistics; this site counts its own.",
};
/** The site files of an archive: its routes.yaml and its redirects (YAML or JSON), at the top or in Ghost's content folders. */
const ROUTES_ENTRY = /^(?:settings\/)?routes\.yaml$/;
const REDIRECTS_ENTRY = /^(?:data\/)?redirects\.(yaml|json)$/;

/**
 * The export in an uploaded `.json`, or in a `.zip` holding one `.json` and, beside it, the site's images
 * (`images/…` or `content/images/…`, as Ghost's zips hold them), which are stored under the same paths so
 * the posts' image URLs keep working. An image already stored under its path is left as it is. The other
 * entries of Ghost 6's archive (`members.csv`, `themes/*.zip`, `routes.yaml`, …) come back in `archive`,
 * for the import to read or to name as not imported.
 */
export async function readImportFile(file: UploadedFile, storage: Storage): Promise<GhostExport> {
  if (extensionOf(file.name) === '.zip') return readZip(file.path, storage);
  return parseExport(await readFile(file.path, 'utf8'));
}

/**
 * `readImportFile` on an upload kept in storage (`key` ends in `.json` or `.zip`). It is copied to a temporary
 * file first: storage may be a bucket, and a zip is read by seeking in its directory.
 */
export async function readStoredImportFile(storage: Storage, key: string): Promise<GhostExport> {
  const folder = await temporaryFolder('import');
  try {
    const local = path.join(folder, `import${extensionOf(key)}`);
    const out = createWriteStream(local, { mode: 0o600 });
    await pipeline(await storage.read(key), out);
    return await readImportFile({ path: local, name: path.basename(local), type: 'application/octet-stream', size: out.bytesWritten }, storage);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Ghost's JSON handler: the file is JSON, and a one-key document is `{db: [export]}`. */
export function parseExport(text: string): GhostExport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw errors.badRequest({ message: (err as Error).message, help: 'check that the import file is valid JSON.' });
  }
  if (parsed !== null && typeof parsed === 'object' && Object.keys(parsed).length === 1) {
    const db = (parsed as { db?: unknown }).db;
    if (!Array.isArray(db)) {
      throw errors.badRequest({ message: 'Invalid JSON format, expected `{ db: [exportedData] }`', help: 'check that the import file is valid JSON.' });
    }
    parsed = db[0];
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw errors.badRequest({ message: 'Invalid JSON format, expected `{ db: [exportedData] }`', help: 'check that the import file is valid JSON.' });
  }
  return parsed as GhostExport;
}

async function readZip(zipPath: string, storage: Storage): Promise<GhostExport> {
  let zip: ZipFile;
  try {
    zip = await open(zipPath, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true });
  } catch {
    throw errors.unsupportedMedia({ message: 'The uploaded zip could not be read', context: 'The filename was too long or contained invalid characters' });
  }
  try {
    if (zip.entryCount > ZIP_LIMITS.entries) throw errors.unsupportedMedia('Invalid zip file structure.');
    // yauzl refuses absolute names, `..` and backslashes while it reads the directory.
    const entries = (await readZipDirectory(zip).catch(() => Promise.reject(errors.unsupportedMedia('Invalid zip file structure.')))).filter(
      (entry) => !entry.fileName.endsWith('/') && !IGNORED.test(entry.fileName),
    );
    let total = 0;
    for (const entry of entries) {
      total += entry.uncompressedSize;
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      if (mode === S_IFLNK || entry.isEncrypted() || total > ZIP_LIMITS.bytes) throw errors.unsupportedMedia('Invalid zip file structure.');
      try {
        checkKey(entry.fileName);
      } catch {
        throw errors.unsupportedMedia('Invalid zip file structure.');
      }
    }
    const json = entries.filter((entry) => extensionOf(entry.fileName) === '.json' && !REDIRECTS_ENTRY.test(entry.fileName));
    const images = entries.flatMap((entry) => {
      const match = /(?:^|\/)(?:content\/)?images\/(.+)$/.exec(entry.fileName);
      return match && IMAGE_UPLOAD.extensions.includes(extensionOf(entry.fileName)) ? [{ entry, key: `images/${match[1]}` }] : [];
    });
    if (json.length === 0 && images.length === 0) throw errors.unsupportedMedia('Zip did not include any content to import.');
    if (json.length > 1) throw errors.unsupportedMedia('Zip file contains multiple data formats. Please split up and import separately.');
    const openEntry = promisify(zip.openReadStream.bind(zip)) as (entry: Entry) => Promise<Readable>;
    const readEntry = async (entry: Entry) => {
      const chunks: Buffer[] = [];
      for await (const chunk of await openEntry(entry)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    for (const { entry, key } of images) {
      if (!(await storage.exists(key))) await storage.write(key, await openEntry(entry));
    }
    const archive: ImportArchive = { membersCsv: null, themes: [], skipped: [], routesYaml: null, redirects: null };
    const used = new Set<Entry>([...json, ...images.map((image) => image.entry)]);
    for (const entry of entries) {
      if (used.has(entry)) continue;
      const theme = /^themes\/([^/]+)\.zip$/i.exec(entry.fileName);
      const redirects = REDIRECTS_ENTRY.exec(entry.fileName);
      if (entry.fileName === 'members.csv') archive.membersCsv = (await readEntry(entry)).toString('utf8');
      else if (ROUTES_ENTRY.test(entry.fileName) && archive.routesYaml === null) archive.routesYaml = (await readEntry(entry)).toString('utf8');
      // Ghost reads the YAML file when an archive (or its content folder) holds both.
      else if (redirects && (archive.redirects === null || redirects[1] === 'yaml')) {
        archive.redirects = { name: entry.fileName, format: redirects[1] as 'yaml' | 'json', text: (await readEntry(entry)).toString('utf8') };
      } else if (theme && entry.uncompressedSize <= THEME_ZIP_BYTES) archive.themes.push({ name: `${theme[1]}.zip`, zip: await readEntry(entry) });
      else if (theme) archive.skipped.push({ name: entry.fileName, reason: 'The theme is larger than an import reads; upload it in Settings - Design.' });
      else archive.skipped.push({ name: entry.fileName, reason: ARCHIVE_REASONS[entry.fileName] ?? 'This site does not read this file of an archive.' });
    }
    if (json.length === 0) return { meta: { version: EXPORT_VERSION }, data: {}, archive };
    return { ...parseExport((await readEntry(json[0]!)).toString('utf8')), archive };
  } finally {
    zip.close();
  }
}
