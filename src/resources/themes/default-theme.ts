import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_THEME_DIR } from '../../config.js';

/**
 * The theme a new site starts with (migration 0009 makes it active): Quire's own, in `themes/quire/` of the
 * install, served from there rather than copied into storage, so every instance has it, it cannot be deleted
 * or overwritten, and nothing has to be written on first start. Its files are read once, when this module
 * loads (about 40 KB of text); a missing folder stops the start with its path named.
 */
export const DEFAULT_THEME_NAME = 'quire';

/** Names no upload may take and no one may delete: Quire's own theme (Ghost's casper and source may be uploaded). */
export const RESERVED_THEME_NAMES: readonly string[] = [DEFAULT_THEME_NAME];

export { DEFAULT_THEME_DIR };

/** Every file of the theme folder by its path inside the theme (`/`-separated), as text: the theme has no binary files. */
function readThemeFolder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
  for (const file of entries) files.set(file, readFileSync(path.join(dir, file), 'utf8'));
  return files;
}

export const DEFAULT_THEME_FILES: ReadonlyMap<string, string> = readThemeFolder(DEFAULT_THEME_DIR);
