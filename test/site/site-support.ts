import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { storageFor } from '../../src/storage/from-config.js';
import { unpackThemeZip } from '../../src/resources/themes/theme-zip.js';
import type { TestSite } from '../test-site.js';

/** Ghost's two default themes, read from the shared test data beside the repository (never copied into it). */
export const THEMES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/themes');

/**
 * Puts `source` or `casper` into the site's theme storage and activates it. Upload refuses these two names
 * (Ghost ships them built in), so the test writes them where an upload would, then activates through the API.
 */
export async function installTheme(t: TestSite, name: 'source' | 'casper', activate = true): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'quire-theme-test-'));
  try {
    const zip = path.join(THEMES_DIR, `${name}.zip`);
    if (!existsSync(zip)) throw new Error(`${zip} is missing: the site tests read Ghost's default themes from ../shared/themes beside the repository`);
    const files = await unpackThemeZip(zip, path.join(work, 'theme'));
    const storage = storageFor(t.config);
    for (const file of files) await storage.write(`themes/${name}/${file.path}`, await readFile(file.file));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (activate) {
    const res = await t.admin.put(`/themes/${name}/activate/`);
    if (res.statusCode !== 200) throw new Error(`activating ${name}: ${res.statusCode} ${res.body}`);
  }
}
