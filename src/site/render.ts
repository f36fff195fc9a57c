import type { Ctx } from '../ctx.js';
import type { CompiledTheme } from './engine.js';
import type { RenderEnv } from './helpers/env.js';
import { DEFAULT_ERROR_TEMPLATE, renderDefaultErrorPage } from './default-error.js';
import type { SiteReads } from './data.js';
import type { SiteGlobals } from './snapshot.js';
import { customValues } from './custom.js';
import { previewedCustom, type SitePreview } from './design-preview.js';

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
  /** The content version the page is rendered at: `@custom` is read once per version (`custom.ts`); without it, read for this page. */
  version?: number;
  /** A post's URL under the routes in effect (its collection's permalink); the Content API's own URL without it. */
  postUrl?: (post: Record<string, unknown>) => string;
  /** The settings as templates see them, read once per content version. */
  globals: SiteGlobals;
  /**
   * Settings the Design screen previews, laid over `@site` and `@custom` as templates see them; the helpers'
   * metadata (descriptions, images, icon) stays the saved settings', as Ghost's does.
   */
  preview?: SitePreview | null;
  /** Where `{{#get}}` and the adjacent-post helpers read: the version's kept reads, or the database for a page read for itself. */
  reads: SiteReads;
}

/** `@config` as a theme's templates see it, made once per loaded theme (`@custom` is stored: `custom.ts` reads it per content version). */
type ThemeConfig = { posts_per_page: number; image_sizes: CompiledTheme['config']['image_sizes'] };
const themeConfigs = new WeakMap<CompiledTheme, ThemeConfig>();

function configOf(theme: CompiledTheme): ThemeConfig {
  let found = themeConfigs.get(theme);
  if (!found) {
    found = { posts_per_page: theme.config.posts_per_page, image_sizes: theme.config.image_sizes };
    themeConfigs.set(theme, found);
  }
  return found;
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
    readonly config: ThemeConfig,
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
    browse: async (resource, query) => {
      const found = await reads.browse(resource, query);
      const { postUrl } = request;
      // Kept posts are shared (frozen): each gets its permalink on a copy.
      return resource === 'posts' && postUrl ? { ...found, items: found.items.map((post) => ({ ...post, url: postUrl(post) })) } : found;
    },
  };
  // Stored values: they change when the Design screen saves, which moves the content version.
  const stored = await customValues(ctx, theme, request.version);
  const custom = request.preview ? previewedCustom(stored, request.preview) : stored;
  const locals = {
    ...data,
    context: request.context,
    relativeUrl: request.relativeUrl,
    secure: ctx.site.url.startsWith('https:'),
    _render: env,
    _contentKey: globals.contentKey,
    _templateOptions: {
      data: new TemplateData(request.preview ? { ...site, ...request.preview.site } : site, globals.labs, configOf(theme), custom, request.member ?? null, {
        show_title_and_feature_image: true,
        ...page,
      }),
    },
  };
  return theme.render(template, locals);
}
