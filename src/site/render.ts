import type { Ctx } from '../ctx.js';
import { readAllSettings } from '../settings/settings.js';
import { presentContentSettings } from '../resources/settings/settings.present.js';
import { siteFacts } from '../resources/settings/settings.service.js';
import { labsFlags } from '../settings/derived.js';
import type { CompiledTheme } from './engine.js';
import type { RenderEnv } from './helpers/env.js';
import { DEFAULT_ERROR_TEMPLATE, renderDefaultErrorPage } from './default-error.js';
import { frontendContentKey } from './frontend-key.js';
import { browse } from './data.js';
import { customValues } from './custom.js';

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
}

/** `@site` as Ghost's global template options build it: the public settings, the URL without its slash, sign-up and comments flags. */
export function siteData(values: ReadonlyMap<string, string | null>, ctx: Ctx): Record<string, unknown> {
  const settings = presentContentSettings(values as never, siteFacts(ctx)) as Record<string, unknown>;
  const url = ctx.site.url.replace(/\/$/, '');
  const signupUrl =
    values.get('members_signup_access') === 'none' ? `https://feedly.com/i/subscription/feed/${encodeURIComponent(`${ctx.site.url}rss/`)}` : '#/portal';
  return { ...settings, url, signup_url: signupUrl, comments_enabled: settings.comments_enabled !== 'off', comments_access: settings.comments_enabled };
}

/**
 * Renders `template` with `data` as its root context, and Ghost's `@` data: `@site`, `@config`
 * (`posts_per_page`, `image_sizes`), `@custom`, `@labs`, `@member` and `@page`.
 */
export async function renderPage(request: PageRequest, template: string, data: Record<string, unknown>, page: Record<string, unknown> = {}): Promise<string> {
  const { ctx, theme } = request;
  const values = (await readAllSettings(ctx.db)) as ReadonlyMap<string, string | null>;
  const site = siteData(values, ctx);
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
      const found = await browse(ctx, resource, query);
      const { postUrl } = request;
      return resource === 'posts' && postUrl ? { ...found, items: found.items.map((post) => ({ ...post, url: postUrl(post) })) } : found;
    },
  };
  const locals = {
    ...data,
    context: request.context,
    relativeUrl: request.relativeUrl,
    secure: ctx.site.url.startsWith('https:'),
    _render: env,
    _contentKey: await frontendContentKey(ctx),
    _templateOptions: {
      data: {
        site,
        labs: labsFlags(values as never),
        config: { posts_per_page: theme.config.posts_per_page, image_sizes: theme.config.image_sizes },
        custom: await customValues(ctx, theme, request.version),
        member: request.member ?? null,
        page: { show_title_and_feature_image: true, ...page },
      },
    },
  };
  if (template === DEFAULT_ERROR_TEMPLATE) {
    return renderDefaultErrorPage({ ...data, basePath: new URL(ctx.site.url).pathname, assetHash: theme.assetHash, siteUrl: site.url });
  }
  return theme.render(template, locals);
}
