import Handlebars from 'handlebars';
import type { Ctx } from '../../ctx.js';

/** What helpers know of the theme being rendered. */
export interface ThemeInfo {
  assetHash: string;
  config: { posts_per_page: number; image_sizes: Record<string, { width?: number; height?: number }>; card_assets: unknown };
  translate(text: string, locale: string): string;
}

export type Entity = Record<string, unknown>;
export interface Page {
  items: Entity[];
  pagination: { page: number; limit: number | string; pages: number; total: number; next: number | null; prev: number | null };
}
export type SiteResource = 'posts' | 'pages' | 'tags' | 'authors';

/** What helpers need from the request beyond the template data: kept on the root context as `_render`. */
export interface RenderEnv {
  ctx: Ctx;
  theme: ThemeInfo;
  /** A Content API browse in-process (`{{#get}}`, the adjacent-post helpers). */
  browse(resource: SiteResource, query: Record<string, unknown>): Promise<Page>;
  /** The site's URL, ending with `/`. */
  siteUrl: string;
  /** Settings as the public site reads them (`@site`). */
  site: Record<string, unknown>;
  /** The stored settings a helper may need beyond `@site` (code injection, Portal, members). */
  settings: ReadonlyMap<string, string | null>;
  /** Which kind of page this is (`home`, `post`, `tag`, `paged`, …). */
  context: readonly string[];
  relativeUrl: string;
  log: { warn(obj: unknown, msg: string): void };
}

export type Options = Handlebars.HelperOptions & { data: Record<string, unknown> & { root: Record<string, unknown> } };

export const { SafeString } = Handlebars;
export const escape = Handlebars.Utils.escapeExpression;
export const createFrame = Handlebars.createFrame as (data: unknown) => Record<string, unknown>;

export function envOf(options: Options): RenderEnv {
  return options.data.root._render as RenderEnv;
}

/** `true`, `"true"` and anything but `"false"`/false count as yes, as Ghost's helpers read boolean hash values. */
export const truthy = (value: unknown) => Boolean(value) && value !== 'false';

/** A site-relative URL (`/tag/x/`) from an absolute one on this site; other URLs as they are. */
export function relativeTo(siteUrl: string, url: string): string {
  const origin = siteUrl.replace(/\/$/, '');
  return url.startsWith(origin) ? url.slice(origin.length) || '/' : url;
}
