import type { Ctx } from '../ctx.js';
import type { CompiledTheme } from './engine.js';
import type { RenderEnv } from './helpers/env.js';
import { DEFAULT_ERROR_TEMPLATE, renderDefaultErrorPage } from './default-error.js';
import type { SiteReads } from './data.js';
import type { SiteGlobals } from './snapshot.js';

/** What one page needs besides its data: the request's ctx, the theme, the path and the kind of page. */
export interface PageRequest {
  ctx: Ctx;
  theme: CompiledTheme;
  /** The path within the site, e.g. `/tag/news/page/2/`. */
  relativeUrl: string;
  /** Ghost's context names (`home`, `paged`, `post`, `page`, `tag`, `author`, `index`, `error`). */
  context: string[];
  /** Ghost's member data of the signed-in reader (`@member`), or null for a visitor. */
  member: Record<string, unknown> | null;
  log: RenderEnv['log'];
  /** The settings as templates see them, read once per content version. */
  globals: SiteGlobals;
  /** Where `{{#get}}` and the adjacent-post helpers read. */
  reads: SiteReads;
}

/** What a theme's templates see of it in `@` data, made once per loaded theme. */
interface ThemeData {
  config: { posts_per_page: number; image_sizes: CompiledTheme['config']['image_sizes'] };
  custom: Record<string, unknown>;
}
const themeData = new WeakMap<CompiledTheme, ThemeData>();

function dataOf(theme: CompiledTheme): ThemeData {
  let found = themeData.get(theme);
  if (!found) {
    found = { config: { posts_per_page: theme.config.posts_per_page, image_sizes: theme.config.image_sizes }, custom: customData(theme) };
    themeData.set(theme, found);
  }
  return found;
}

/** The theme's `@custom` values: each setting's default from `package.json` `config.custom` (the theme-admin work stores edits). */
export function customData(theme: CompiledTheme): Record<string, unknown> {
  const custom: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(theme.config.custom ?? {})) custom[key] = setting?.default ?? null;
  return custom;
}

/**
 * Ghost's `@` data of one render. An instance of a class rather than a plain object on purpose: express-hbs
 * deep-merges (lodash `merge`) the plain template options into a copy for every template of the layout chain,
 * which copied all of `@site` twice a page; an instance is passed by reference (nothing in a render changes it).
 */
class TemplateData {
  constructor(
    readonly site: Record<string, unknown>,
    readonly labs: Record<string, unknown>,
    readonly config: ThemeData['config'],
    readonly custom: Record<string, unknown>,
    readonly member: Record<string, unknown> | null,
    readonly page: Record<string, unknown>,
  ) {}
}

/**
 * Renders `template` with `data` as its root context, and Ghost's `@` data: `@site`, `@config`
 * (`posts_per_page`, `image_sizes`), `@custom`, `@labs`, `@member` and `@page`.
 */
export async function renderPage(request: PageRequest, template: string, data: Record<string, unknown>, page: Record<string, unknown> = {}): Promise<string> {
  const { ctx, theme, globals, reads } = request;
  const { site, values } = globals;
  if (template === DEFAULT_ERROR_TEMPLATE) {
    return renderDefaultErrorPage({ ...data, basePath: new URL(ctx.site.url).pathname, assetHash: theme.assetHash, siteUrl: site.url });
  }
  const env: RenderEnv = {
    ctx,
    theme,
    siteUrl: ctx.site.url,
    site,
    settings: values,
    context: request.context,
    relativeUrl: request.relativeUrl,
    log: request.log,
    browse: (resource, query) => reads.browse(resource, query),
  };
  const { config, custom } = dataOf(theme);
  const locals = {
    ...data,
    context: request.context,
    relativeUrl: request.relativeUrl,
    secure: ctx.site.url.startsWith('https:'),
    _render: env,
    _contentKey: globals.contentKey,
    _templateOptions: {
      data: new TemplateData(site, globals.labs, config, custom, request.member ?? null, { show_title_and_feature_image: true, ...page }),
    },
  };
  return theme.render(template, locals);
}
