import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';
import type { Ctx } from '../../ctx.js';
import { errors, GhostError } from '../../errors.js';
import type { UploadedFile } from '../../http/upload.js';
import { invalidateSettings, readSetting, writeSettings } from '../../settings/settings.js';
import { storedName } from '../../storage/upload-keys.js';
import { DEFAULT_THEME_FILES, DEFAULT_THEME_NAME, RESERVED_THEME_NAMES } from './default-theme.js';
import { ThemeZipError, unpackThemeZip } from './theme-zip.js';
import { cachedThemeCheck, checkThemeFolder, keepThemeCheck, type ThemeCheck } from './theme-checks.js';
import { syncCustomThemeSettings } from './custom-theme-settings.sync.js';

/** A theme as stored: its name and the paths of its files (relative to the theme's folder). */
export interface Theme {
  name: string;
  files: readonly string[];
}

export interface ThemeView extends Theme {
  package: Record<string, unknown> | false;
  active: boolean;
}

const folderOf = (name: string) => `themes/${name}`;

/** Every theme: the built-in one and those in storage (`themes/<name>/…`), by name. */
export async function listThemes(ctx: Ctx): Promise<Theme[]> {
  const byName = new Map<string, string[]>([[DEFAULT_THEME_NAME, [...DEFAULT_THEME_FILES.keys()]]]);
  for (const key of await ctx.storage.list('themes')) {
    const [, name, ...rest] = key.split('/');
    // The built-in theme cannot be shadowed: an upload may not take its name.
    if (!name || rest.length === 0 || name === DEFAULT_THEME_NAME) continue;
    const files = byName.get(name) ?? [];
    files.push(rest.join('/'));
    byName.set(name, files);
  }
  return [...byName.entries()].map(([name, files]) => ({ name, files })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function findTheme(ctx: Ctx, name: string): Promise<Theme | undefined> {
  if (name === DEFAULT_THEME_NAME) return { name, files: [...DEFAULT_THEME_FILES.keys()] };
  if (!validName(name)) return undefined;
  const files = (await ctx.storage.list(folderOf(name))).map((key) => key.slice(folderOf(name).length + 1));
  return files.length ? { name, files } : undefined;
}

/** A theme name as Ghost makes them from zip names: no folder separators or dots alone, so a name is one storage folder. */
const validName = (name: string) => /^[\w@.-]+$/.test(name) && name !== '.' && name !== '..';

export async function activeThemeName(ctx: Ctx): Promise<string> {
  return (await readSetting(ctx.db, 'active_theme')) ?? DEFAULT_THEME_NAME;
}

async function readThemeFile(ctx: Ctx, theme: string, file: string): Promise<Buffer> {
  if (theme === DEFAULT_THEME_NAME) return Buffer.from(DEFAULT_THEME_FILES.get(file) ?? '');
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.storage.read(`${folderOf(theme)}/${file}`)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The theme's package.json, or `false` when it has none or it cannot be parsed (as Ghost shows it). */
async function packageOf(ctx: Ctx, theme: Theme): Promise<Record<string, unknown> | false> {
  if (!theme.files.includes('package.json')) return false;
  try {
    const parsed: unknown = JSON.parse((await readThemeFile(ctx, theme.name, 'package.json')).toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : false;
  } catch {
    return false;
  }
}

/** The package.json of the theme called `name`, or `false` (no such theme, none, or unreadable). */
export async function packageOfTheme(ctx: Ctx, name: string): Promise<Record<string, unknown> | false> {
  const theme = await findTheme(ctx, name);
  return theme ? packageOf(ctx, theme) : false;
}

export async function viewTheme(ctx: Ctx, theme: Theme, activeName: string): Promise<ThemeView> {
  return { ...theme, package: await packageOf(ctx, theme), active: theme.name === activeName };
}

export async function browseThemes(ctx: Ctx): Promise<ThemeView[]> {
  const active = await activeThemeName(ctx);
  return Promise.all((await listThemes(ctx)).map((theme) => viewTheme(ctx, theme, active)));
}

export async function readActiveTheme(ctx: Ctx): Promise<{ view: ThemeView; problems: ThemeCheck | null }> {
  const name = await activeThemeName(ctx);
  const theme = await findTheme(ctx, name);
  const view = await viewTheme(ctx, theme ?? { name, files: [] }, name);
  return { view, problems: theme ? await themeCheckOf(ctx, theme) : null };
}

/** gscan's findings for a stored theme: kept from its upload, else checked once from a copy of its files. */
export async function themeCheckOf(ctx: Ctx, theme: Theme): Promise<ThemeCheck> {
  return cachedThemeCheck(theme.name, await fingerprint(ctx, theme.name), () => withThemeFolder(ctx, theme, (dir) => checkThemeFolder(theme.name, dir)));
}

/** What changes when a theme of that name is uploaded again: its file list and its package.json's entity tag. */
async function fingerprint(ctx: Ctx, name: string): Promise<string> {
  if (name === DEFAULT_THEME_NAME) return 'built-in';
  const keys = await ctx.storage.list(folderOf(name));
  const stat = await ctx.storage.stat(`${folderOf(name)}/package.json`);
  return `${keys.length}:${keys.join('|')}:${stat?.etag ?? ''}`;
}

/** Runs `fn` over a private temporary copy of a stored theme's files (gscan reads a folder). */
async function withThemeFolder<T>(ctx: Ctx, theme: Theme, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-theme-check-'));
  try {
    for (const file of theme.files) {
      const target = path.resolve(dir, file);
      // Storage keys are checked on write; a name that would still leave the folder is skipped, never written.
      if (!target.startsWith(`${dir}${path.sep}`)) continue;
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, await readThemeFile(ctx, theme.name, file));
    }
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `PUT /themes/:name/activate/`: refuses a theme that is missing or has fatal errors, as Ghost does; the
 * setting and the theme's custom settings (added, dropped or reset as the theme's package.json now says)
 * change in one transaction.
 */
export async function activateTheme(ctx: Ctx, name: string): Promise<{ view: ThemeView; problems: ThemeCheck }> {
  const theme = await findTheme(ctx, name);
  if (!theme) throw errors.validation({ message: `${name} cannot be activated because it was not found in the theme directory.`, details: name });
  const view = await viewTheme(ctx, theme, name);
  const problems = await themeCheckOf(ctx, theme);
  if (problems.fatal) throw invalidTheme(name, problems);
  await ctx.write(async (w) => {
    await writeSettings(w.db, { active_theme: name }, w.clock.now());
    await syncCustomThemeSettings(w, name, customSettingsOf(view.package));
  });
  invalidateSettings();
  return { view, problems };
}

/** The theme's `config.custom` definitions, as its package.json declares them. */
export function customSettingsOf(pkg: ThemeView['package']): Record<string, unknown> {
  const config = pkg ? pkg.config : undefined;
  const custom = config && typeof config === 'object' ? (config as Record<string, unknown>).custom : undefined;
  return custom && typeof custom === 'object' && !Array.isArray(custom) ? (custom as Record<string, unknown>) : {};
}

/** Ghost's refusal of a theme with fatal errors; `name` and `version` come from its package.json, when it has them. */
function invalidTheme(name: string, problems: ThemeCheck): GhostError {
  return new GhostError('ThemeValidationError', {
    message: `Theme "${name}" is not compatible or contains errors.`,
    details: {
      checkedVersion: problems.checkedVersion,
      ...(problems.name === null ? {} : { name: problems.name }),
      // Ghost shows the server's temporary folder here; Quire shows where the theme would be stored.
      path: folderOf(name),
      ...(problems.version === null ? {} : { version: problems.version }),
      errors: problems.errors,
      warnings: problems.warnings,
    },
  });
}

/** Ghost's theme name from the zip's name: `.zip` dropped, characters outside `[A-Za-z0-9_@.]` → `-`, case kept. */
export function themeNameOf(zipName: string): string {
  const { base, ext } = storedName(zipName.replace(/\.zip$/i, ''));
  return base + ext;
}

/**
 * `POST /themes/upload/`: the zip is unpacked and checked with gscan in the request's temporary folder; only
 * a theme without fatal errors is written to storage, replacing a theme of the same name (whose custom
 * setting values are kept, as Ghost keeps them). Returns whether the replaced theme is the active one
 * (caches must then be cleared).
 */
export async function uploadTheme(ctx: Ctx, zip: UploadedFile): Promise<{ view: ThemeView; problems: ThemeCheck; replacedActive: boolean }> {
  const name = themeNameOf(zip.name);
  if (RESERVED_THEME_NAMES.includes(name.toLowerCase())) throw errors.validation("Please rename your zip, it's not allowed to override the default theme.");
  const folder = path.join(path.dirname(zip.path), 'theme');
  let unpacked;
  try {
    unpacked = await unpackThemeZip(zip.path, folder);
  } catch (err) {
    if (!(err instanceof ThemeZipError) && !isZipReadError(err)) throw err;
    throw errors.validation({
      message: 'Failed to read zip file',
      context: zip.name,
      details: (err as Error).message,
      help: 'Your zip file might be corrupted, try unzipping and zipping again.',
    });
  }
  const problems = await checkThemeFolder(name, folder);
  if (problems.fatal) throw invalidTheme(name, problems);

  const active = await activeThemeName(ctx);
  const theme: Theme = { name, files: unpacked.map((file) => file.path) };
  const packageFile = unpacked.find((file) => file.path === 'package.json');
  let pkg: ThemeView['package'] = false;
  if (packageFile) {
    try {
      const parsed: unknown = JSON.parse((await readFile(packageFile.file)).toString('utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) pkg = parsed as Record<string, unknown>;
    } catch {
      pkg = false;
    }
  }
  const view: ThemeView = { ...theme, package: pkg, active: name === active };
  await ctx.storage.deleteAll(folderOf(name));
  for (const file of unpacked) await ctx.storage.write(`${folderOf(name)}/${file.path}`, createReadStream(file.file));
  keepThemeCheck(name, await fingerprint(ctx, name), problems);
  // As Ghost re-activates a replaced active theme: its custom settings follow the new package.json.
  if (view.active) await ctx.write(async (w) => syncCustomThemeSettings(w, name, customSettingsOf(pkg)));
  return { view, problems, replacedActive: view.active };
}

/** yauzl's own refusals of a damaged or hostile zip (bad signatures, names that leave the folder, sizes that lie). */
const isZipReadError = (err: unknown) => err instanceof Error && !('code' in err && typeof (err as NodeJS.ErrnoException).code === 'string');

/** `GET /themes/:name/download/`: the theme's files as a zip, streamed as it is built. */
export async function downloadTheme(ctx: Ctx, name: string): Promise<Readable> {
  const theme = await findTheme(ctx, name);
  if (!theme) throw errors.badRequest('Please select a valid theme.');
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  const fail = (err: Error) => out.destroy(err);
  zip.on('error', fail);
  zip.outputStream.pipe(out);
  for (const file of theme.files) {
    if (name === DEFAULT_THEME_NAME) zip.addBuffer(Buffer.from(DEFAULT_THEME_FILES.get(file) ?? ''), file);
    // Each file is opened when its turn comes (one open file at a time); yazl does not watch the stream's errors.
    else {
      zip.addReadStreamLazy(file, (done) => {
        ctx.storage.read(`${folderOf(name)}/${file}`).then((stream) => done(null, stream.once('error', fail)), fail);
      });
    }
  }
  zip.end();
  return out;
}

/** `DELETE /themes/:name/`: never the built-in theme or the active one. */
export async function deleteTheme(ctx: Ctx, name: string): Promise<void> {
  if (RESERVED_THEME_NAMES.includes(name)) throw errors.validation('Deleting the default theme is not allowed.');
  if (name === (await activeThemeName(ctx))) throw errors.validation('Deleting the active theme is not allowed.');
  if (!(await findTheme(ctx, name))) throw errors.notFound('Theme does not exist.');
  await ctx.storage.deleteAll(folderOf(name));
}
