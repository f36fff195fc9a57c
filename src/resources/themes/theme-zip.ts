import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { checkKey } from '../../storage/storage.js';

/** Bounds on an uploaded theme, checked on the zip's directory before a byte is unpacked. */
export const THEME_ZIP_LIMITS = {
  /** Casper holds about 100 files; a theme with thousands is an attack or a mistake. */
  entries: 3000,
  /** Total unpacked size. */
  bytes: 100 * 1024 * 1024,
  /** Largest unpacked/packed ratio of an entry bigger than 1 MiB (text compresses about 10:1). */
  ratio: 200,
};

export class ThemeZipError extends Error {
  override name = 'ThemeZipError';
}

/** One file of the theme: its path inside the theme (base folder removed) and where it was unpacked (`into`/path). */
export interface ThemeFile {
  path: string;
  file: string;
}

const open = promisify<string, yauzl.Options, ZipFile>(yauzl.open);
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
/** Archivers' litter, never part of a theme. */
const IGNORED = /(^|\/)(__MACOSX|\.DS_Store|Thumbs\.db)(\/|$)/;

/**
 * Unpacks a theme zip into `into`, or refuses it whole: every entry is checked first (yauzl refuses absolute
 * paths, `..` and backslashes in names; here links, encrypted entries, too many entries, too many bytes and
 * compression bombs), and only then are files unpacked. yauzl also stops an entry that unpacks to more than
 * its declared size, so the checked sizes hold. A single top folder holding the theme is removed from the paths.
 */
export async function unpackThemeZip(zipPath: string, into: string): Promise<ThemeFile[]> {
  const zip = await open(zipPath, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true });
  try {
    if (zip.entryCount > THEME_ZIP_LIMITS.entries)
      throw new ThemeZipError(`the zip holds ${zip.entryCount} entries; a theme may hold ${THEME_ZIP_LIMITS.entries}`);
    const entries = await readZipDirectory(zip);
    const files = entries.filter((entry) => !entry.fileName.endsWith('/') && !IGNORED.test(entry.fileName));
    let total = 0;
    for (const entry of files) {
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      if (mode === S_IFLNK) throw new ThemeZipError(`"${entry.fileName}" is a link; themes may not hold links`);
      if (entry.isEncrypted()) throw new ThemeZipError(`"${entry.fileName}" is encrypted`);
      total += entry.uncompressedSize;
      if (total > THEME_ZIP_LIMITS.bytes) throw new ThemeZipError(`the theme unpacks to more than ${THEME_ZIP_LIMITS.bytes / 1024 / 1024} MB`);
      const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
      if (entry.uncompressedSize > 1024 * 1024 && ratio > THEME_ZIP_LIMITS.ratio)
        throw new ThemeZipError(`"${entry.fileName}" is compressed ${Math.round(ratio)}:1, too much to be a theme file`);
      try {
        checkKey(entry.fileName);
      } catch {
        throw new ThemeZipError(`"${entry.fileName}" is not a plain relative path`);
      }
    }
    const base = baseFolder(files.map((entry) => entry.fileName));
    const unpacked: ThemeFile[] = [];
    const root = path.resolve(into);
    for (const entry of files) {
      const relative = entry.fileName.slice(base.length);
      // Unpacked as the theme's own tree (gscan reads the folder); the names were checked above, and this holds whatever they say.
      const file = path.resolve(root, relative);
      if (!file.startsWith(`${root}${path.sep}`)) throw new ThemeZipError(`"${entry.fileName}" is not a plain relative path`);
      try {
        await mkdir(path.dirname(file), { recursive: true });
        const stream = await promisify(zip.openReadStream.bind(zip))(entry);
        await pipeline(stream, createWriteStream(file, { mode: 0o600, flags: 'wx' }));
      } catch (err) {
        // A name given twice, or both as a file and as a folder: not a theme anyone packed on purpose.
        if (['EEXIST', 'ENOTDIR', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) {
          throw new ThemeZipError(`"${entry.fileName}" clashes with another entry of the zip`);
        }
        throw err;
      }
      unpacked.push({ path: relative, file });
    }
    return unpacked;
  } finally {
    zip.close();
  }
}

/** Every entry of an opened zip (`lazyEntries: true`), from its central directory. */
export function readZipDirectory(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

/** `casper/` when every file sits in that one folder (how themes are usually zipped), else ``. */
function baseFolder(names: string[]): string {
  const first = names[0]?.split('/')[0];
  if (!first || names.some((name) => !name.startsWith(`${first}/`))) return '';
  // A theme zipped flat with one folder of its own (say only `assets/…`) keeps it: index.hbs marks the root.
  return names.some((name) => name === `${first}/index.hbs` || name === `${first}/package.json`) ? `${first}/` : '';
}
