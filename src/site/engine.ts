import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Handlebars from 'handlebars';
import { registerHelpers } from './helpers/index.js';
import { HELPER_PARTIALS } from './helpers/partials.js';

const require = createRequire(import.meta.url);

type RenderCallback = (err: Error | null, html?: string) => void;
type RenderFile = (filename: string, options: Record<string, unknown>, cb: RenderCallback) => void;

/** The part of express-hbs 2.5.0 we use: Ghost's layouts (`{{!< default}}`), partials, blocks and async helpers. */
export interface ExpressHbs {
  handlebars: typeof Handlebars;
  SafeString: typeof Handlebars.SafeString;
  create(): ExpressHbs;
  express4(options: Record<string, unknown>): RenderFile;
  registerHelper(name: string, fn: Handlebars.HelperDelegate): void;
  registerAsyncHelper(name: string, fn: (context: unknown, options: Handlebars.HelperOptions, cb: (value: unknown) => void) => void): void;
  registerPartial(name: string, source: string, filename?: string): void;
}

const expressHbs = require('express-hbs') as ExpressHbs;

/** The theme's `package.json` `config`, as Ghost reads it (`posts_per_page`, `image_sizes`, `custom`, `card_assets`). */
export interface ThemeConfig {
  posts_per_page: number;
  image_sizes: Record<string, { width?: number; height?: number }>;
  card_assets: unknown;
  custom: Record<string, { type?: string; default?: unknown; options?: unknown[] }>;
}

export interface CompiledTheme {
  name: string;
  dir: string;
  version: string;
  config: ThemeConfig;
  /** The `?v=` of asset URLs: changes with every load of the theme, so browsers fetch replaced files. */
  assetHash: string;
  /** The theme's translation of `text` from `locales/<locale>.json` (or `en.json`), else `text`. */
  translate(text: string, locale: string): string;
  /** Top-level templates by name (`post`, `tag-news`, `error-404`, `custom-wide`). */
  templates: ReadonlySet<string>;
  hasTemplate(name: string): boolean;
  /** Renders `template` with its layout chain; `locals` become the root context (`_templateOptions.data` the `@` data). */
  render(template: string, locals: Record<string, unknown>): Promise<string>;
}

const DEFAULT_CONFIG: ThemeConfig = { posts_per_page: 5, image_sizes: {}, card_assets: true, custom: {} };

function readPackage(dir: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * One express-hbs instance (with its own Handlebars) per loaded theme: our helpers and helper templates are
 * registered on it, the theme's `partials/` override the helper templates of the same name, and compiled
 * templates, layouts and partials are cached in it (`cache: true`) until the theme is replaced.
 */
export function compileTheme(name: string, dir: string): CompiledTheme {
  const pkg = readPackage(dir);
  const config = { ...DEFAULT_CONFIG, ...((pkg.config as Partial<ThemeConfig> | undefined) ?? {}) };
  const hbs = expressHbs.create();
  registerHelpers(hbs);
  const partialsDir = path.join(dir, 'partials');
  const renderFile = hbs.express4({
    ...(existsSync(partialsDir) ? { partialsDir: [partialsDir] } : {}),
    restrictLayoutsTo: dir,
    // As Ghost: a partial's output is not re-indented to where the partial tag stands.
    onCompile: (exhbs: ExpressHbs, source: string) => exhbs.handlebars.compile(source, { preventIndent: true }),
  });
  // After express4, so they compile as the theme's do; the theme's partials of the same names replace them.
  for (const [partial, source] of HELPER_PARTIALS) hbs.registerPartial(partial, source);
  const templates = new Set(
    readdirSync(dir)
      .filter((file) => file.endsWith('.hbs'))
      .map((file) => file.slice(0, -4)),
  );
  const locales = new Map<string, Record<string, string>>();
  const localeOf = (locale: string): Record<string, string> => {
    if (!locales.has(locale)) {
      let table: Record<string, string> = {};
      try {
        if (/^[\w-]+$/.test(locale)) table = JSON.parse(readFileSync(path.join(dir, 'locales', `${locale}.json`), 'utf8')) as Record<string, string>;
      } catch {
        table = {};
      }
      locales.set(locale, table);
    }
    return locales.get(locale)!;
  };
  return {
    name,
    dir,
    version: typeof pkg.version === 'string' ? pkg.version : '',
    config,
    assetHash: createHash('sha256').update(`${name}\n${dir}`).digest('hex').slice(0, 10),
    translate: (text, locale) => {
      const value = localeOf(locale)[text] ?? localeOf('en')[text];
      return typeof value === 'string' && value !== '' ? value : text;
    },
    templates,
    hasTemplate: (template) => templates.has(template),
    render: (template, locals) =>
      new Promise((resolve, reject) => {
        if (!templates.has(template)) return reject(Object.assign(new Error(`Template ${template} not found.`), { code: 'ENOENT' }));
        const options = { settings: { views: dir }, cache: true, _partials: hbs.handlebars.partials, ...locals };
        renderFile(path.join(dir, `${template}.hbs`), options, (err, html) => (err ? reject(err) : resolve(html ?? '')));
      }),
  };
}
