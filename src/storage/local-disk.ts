import { createWriteStream, type Stats } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { checkKey, MissingFileError, type FileStat, type Storage } from './storage.js';

/** A file being written (see `write`): never listed. */
const DRAFT = /\.[0-9a-f]{12}\.tmp$/;

// Size and modification time stand for the bytes: a write replaces the file whole (rename), so both change.
const statOf = (info: Stats): FileStat => ({
  size: info.size,
  modified: info.mtime,
  etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
});

/**
 * Files on local disk under `root` (`CONTENT_DIR`), public ones reachable under `publicBase`
 * (`<SITE_URL>content/`, Ghost's public paths).
 */
export function localDiskStorage(root: string, publicBase: string): Storage {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    const file = path.resolve(base, checkKey(key));
    // checkKey already refuses every escaping key; this is the second lock on the same door.
    if (!file.startsWith(base + path.sep)) throw new Error(`storage key ${JSON.stringify(key)} resolves outside ${base}`);
    return file;
  };

  return {
    async write(key, data, options = {}) {
      const file = fileOf(key);
      if (options.private) {
        // A private file's folder (data/imports/) is this user's only: 700, made under folders made as usual.
        await mkdir(path.dirname(path.dirname(file)), { recursive: true });
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      } else await mkdir(path.dirname(file), { recursive: true });
      // Written under a temporary name in the same folder, then renamed over the key: a reader (or another
      // instance on the same disk) sees the old file or the whole new one.
      const draft = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      const mode = options.private ? 0o600 : 0o644;
      try {
        if (typeof data === 'string' || Buffer.isBuffer(data)) await writeFile(draft, data, { mode });
        else await pipeline(data, createWriteStream(draft, { mode }));
        await rename(draft, file);
      } catch (err) {
        await unlink(draft).catch(() => {});
        throw err;
      }
    },

    async read(key) {
      const file = fileOf(key);
      try {
        // Opened here rather than by the stream, so a missing file rejects now instead of erroring later.
        return (await open(file)).createReadStream();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new MissingFileError(key);
        throw err;
      }
    },

    async open(key, range) {
      const file = fileOf(key);
      let handle;
      try {
        handle = await open(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new MissingFileError(key);
        throw err;
      }
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        throw new MissingFileError(key);
      }
      const body = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      return { body, ...statOf(info) };
    },

    async stat(key) {
      const info = await stat(fileOf(key)).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
        throw err;
      });
      return info?.isFile() ? statOf(info) : null;
    },

    async exists(key) {
      return access(fileOf(key)).then(
        () => true,
        () => false,
      );
    },

    async delete(key) {
      await unlink(fileOf(key)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    },

    async deleteAll(prefix) {
      await rm(fileOf(prefix), { recursive: true, force: true });
    },

    async list(prefix) {
      const dir = fileOf(prefix);
      const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [];
        throw err;
      });
      return entries
        .filter((entry) => entry.isFile() && !DRAFT.test(entry.name))
        .map((entry) => path.relative(base, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
    },

    url(key) {
      return publicBase + checkKey(key).split('/').map(encodeURIComponent).join('/');
    },
  };
}
