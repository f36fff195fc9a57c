import path from 'node:path';
import type { Storage } from './storage.js';

/**
 * Ghost's stored name of an upload (`ghost-storage-base`): every character outside `[A-Za-z0-9_@.]` becomes `-`,
 * the extension is kept (an all-digit "extension" such as `.1` counts as part of the name), and a trailing `_o`
 * is dropped, since that suffix marks the untouched originals stored beside resized images.
 */
export function storedName(uploaded: string): { base: string; ext: string } {
  const name = path.basename(uploaded);
  let ext = path.extname(name);
  if (/^\.\d+$/.test(ext)) ext = '';
  let base = name.slice(0, name.length - ext.length);
  base = base.replace(/_o$/, '');
  const clean = (text: string) => text.replace(/[^\w@.]/g, '-');
  return { base: clean(base) || '-', ext: clean(ext) };
}

/** `YYYY/MM` of an upload, as Ghost lays out `content/images/` (UTC here). */
export function monthFolder(now: Date): string {
  return `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * A key in `folder` no file has yet: `name.ext`, then `name-1.ext`, `name-2.ext`, … as Ghost numbers them.
 * Two uploads of one name at the same moment can pick the same key; the later write then wins.
 */
export async function freeKey(storage: Storage, folder: string, uploaded: string): Promise<string> {
  const { base, ext } = storedName(uploaded);
  for (let n = 0; ; n++) {
    const key = `${folder}/${base}${n === 0 ? '' : `-${n}`}${ext}`;
    if (!(await storage.exists(key))) return key;
  }
}

/** The key of an image's untouched original: `photo.jpg` → `photo_o.jpg`. */
export function originalKey(key: string): string {
  const ext = path.posix.extname(key);
  return `${key.slice(0, key.length - ext.length)}_o${ext}`;
}
