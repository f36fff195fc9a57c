import { createWriteStream } from 'node:fs';
import { access, mkdir, open, rename, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { checkKey, MissingFileError, type Storage } from './storage.js';

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
      await mkdir(path.dirname(file), { recursive: true });
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

    url(key) {
      return publicBase + checkKey(key).split('/').map(encodeURIComponent).join('/');
    },
  };
}
