import type { CompiledTheme } from './engine.js';
import { DEFAULT_ERROR_TEMPLATE } from './default-error.js';

/** The first template of `list` the theme has, else `fallback` (Ghost's `pickTemplate`). */
export function pick<T extends string | null>(theme: CompiledTheme, list: readonly (string | null | undefined)[], fallback: T): string | T {
  return list.find((name): name is string => Boolean(name) && theme.hasTemplate(name!)) ?? fallback;
}

/** Lists: `home` on the front page, the route's own templates (routes.yaml), then `tag-{slug}`, `tag` (or the collection's name), then `index`. */
export function entriesTemplate(
  theme: CompiledTheme,
  route: { name: string; slug?: string; frontPage?: string | null; templates?: readonly string[] },
): string {
  const list: string[] = [];
  if (route.frontPage) list.push(route.frontPage);
  list.push(...(route.templates ?? []));
  if (route.name !== 'index') {
    if (route.slug) list.push(`${route.name}-${route.slug}`);
    list.push(route.name);
  }
  list.push('index');
  return pick(theme, list, 'index');
}

/** Posts: `post-{slug}`, `custom-{template}`, `post`; pages: `page-{slug}`, `custom-{template}`, `page`, `post`. */
export function entryTemplate(theme: CompiledTheme, entry: Record<string, unknown>, type: 'post' | 'page'): string {
  const list = [`${type}-${String(entry.slug)}`];
  if (typeof entry.custom_template === 'string' && entry.custom_template) list.push(entry.custom_template);
  if (type === 'page') list.push('page');
  list.push('post');
  return pick(theme, list, 'post');
}

/** Errors: `error-404`, `error-4xx`, `error`, else the site's own error page. */
export function errorTemplate(theme: CompiledTheme, status: number): string {
  const code = String(status);
  return pick(theme, [`error-${code}`, `error-${code[0]}xx`, 'error'], DEFAULT_ERROR_TEMPLATE);
}
