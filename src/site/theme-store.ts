import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Ctx } from '../ctx.js';
import { DEFAULT_THEME_FILES, DEFAULT_THEME_NAME } from '../resources/themes/default-theme.js';
import { activeThemeName } from '../resources/themes/themes.service.js';
import type { CompiledTheme } from './engine.js';

/**
 * The active theme, compiled once per activation. Theme files live in storage (local disk or S3); the engine
 * reads templates from a folder, so each loaded theme is copied into a private temporary folder first and
 * compiled from there (Ghost reads its themes folder the same way). Which theme is active, and whether its
 * files changed, is checked again only when the content version moves: activating a theme and replacing the
 * active one both bump it (`site.changed`), so every instance sees the new theme on its next request.
 */
export class ThemeStore {
  #checkedAt = -1;
  #current: { key: string; theme: Promise<CompiledTheme> } | null = null;
  #root: Promise<string> | null = null;

  /** The theme to render with at content `version`. */
  async active(ctx: Ctx, version: number): Promise<CompiledTheme> {
    if (this.#current && version === this.#checkedAt) return this.#current.theme;
    const name = await activeThemeName(ctx);
    const key = `${name}\n${await fingerprint(ctx, name)}`;
    if (this.#current?.key !== key) {
      const previous = this.#current;
      const theme = this.#load(ctx, name);
      this.#current = { key, theme };
      // A failed load is not kept: the next request tries again.
      theme.catch(() => {
        if (this.#current?.theme === theme) this.#current = null;
      });
      if (previous) void previous.theme.then((old) => rm(old.dir, { recursive: true, force: true })).catch(() => undefined);
    }
    this.#checkedAt = version;
    return this.#current!.theme;
  }

  async close(): Promise<void> {
    if (this.#root) await rm(await this.#root, { recursive: true, force: true });
  }

  async #load(ctx: Ctx, name: string): Promise<CompiledTheme> {
    this.#root ??= mkdtemp(path.join(tmpdir(), 'quire-themes-'));
    const dir = await mkdtemp(path.join(await this.#root, `${name.replace(/[^\w.@-]/g, '-')}-`));
    for (const [file, content] of await themeFiles(ctx, name)) {
      const target = path.resolve(dir, file);
      // Storage keys are checked on write; a name that would still leave the folder is skipped, never written.
      if (!target.startsWith(`${dir}${path.sep}`)) continue;
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
    }
    // The engine (express-hbs, the helpers, moment-timezone: ~5 MB of heap) loads with the first theme, so a
    // server that only answers the APIs never holds it.
    const { compileTheme } = await import('./engine.js');
    return compileTheme(name, dir);
  }
}

/** The files of a stored theme (or the built-in one), with their paths inside the theme. */
async function themeFiles(ctx: Ctx, name: string): Promise<[string, Buffer][]> {
  if (name === DEFAULT_THEME_NAME) return [...DEFAULT_THEME_FILES].map(([file, text]) => [file, Buffer.from(text)]);
  const prefix = `themes/${name}/`;
  const files: [string, Buffer][] = [];
  for (const key of await ctx.storage.list(`themes/${name}`)) {
    const chunks: Buffer[] = [];
    for await (const chunk of await ctx.storage.read(key)) chunks.push(chunk as Buffer);
    files.push([key.slice(prefix.length), Buffer.concat(chunks)]);
  }
  return files;
}

/** What changes when a theme of that name is uploaded again: its file list and its package.json's size and time. */
async function fingerprint(ctx: Ctx, name: string): Promise<string> {
  if (name === DEFAULT_THEME_NAME) return 'built-in';
  const keys = await ctx.storage.list(`themes/${name}`);
  const stat = await ctx.storage.stat(`themes/${name}/package.json`);
  return `${keys.length}:${keys.join('|').length}:${stat?.etag ?? ''}`;
}
