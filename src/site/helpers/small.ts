import { GhostError } from '../../errors.js';
import { SafeString, envOf, escape, type Options } from './env.js';

/** Ghost's `meta/paginated-url.js`: the URL of page `page` of the list being shown, site-relative. */
export function paginatedUrl(page: unknown, root: Record<string, unknown>): string | null {
  const relativeUrl = root.relativeUrl as string | undefined;
  const pagination = root.pagination as { next: number | null; prev: number | null } | undefined;
  if (!relativeUrl || !pagination) return null;
  const match = /(.+)?(\/page\/\d+\/)/.exec(relativeUrl);
  const base = match ? match[1] : relativeUrl.slice(0, -1);
  let target: string;
  if (page === 'next' && pagination.next) target = `/page/${pagination.next}/`;
  else if (page === 'prev' && pagination.prev) target = pagination.prev > 1 ? `/page/${pagination.prev}/` : '/';
  else if (typeof page === 'number') target = page > 1 ? `/page/${page}/` : '/';
  else return null;
  return base ? `${base}${target}`.replace(/\/\/+/g, '/') : target;
}

export function page_url(this: unknown, page: unknown, options?: Options) {
  if (!options) return paginatedUrl(1, (page as Options).data.root);
  return paginatedUrl(page, options.data.root);
}

/** Ghost's `buildLinkClasses`: `nav-current` (or `activeClass`) when `href` is the page being shown. */
function linkClasses(siteUrl: string, href: string, options: Options): string[] {
  const hash = options.hash as Record<string, unknown>;
  const relativeUrl = String(options.data.root.relativeUrl ?? '');
  const activeClass = hash.activeClass !== undefined ? String(hash.activeClass) : 'nav-current';
  const parentActiveClass = hash.parentActiveClass !== undefined ? String(hash.parentActiveClass) : `${activeClass || 'nav-current'}-parent`;
  const classes = hash.class ? String(hash.class).split(' ') : [];
  const clean = (url: string) => {
    const stripped = url.replace(siteUrl.replace(/\/$/, ''), '').replace(/[?#].*$/, '');
    return stripped.endsWith('/') ? stripped : `${stripped}/`;
  };
  const target = clean(href);
  const current = clean(relativeUrl);
  if (href && target === current && activeClass) classes.push(activeClass);
  else if (href && current.startsWith(target) && target !== '/' && parentActiveClass) classes.push(parentActiveClass);
  return classes;
}

export function link_class(this: unknown, options: Options) {
  const hash = options.hash as Record<string, unknown>;
  if (!('for' in hash)) throw new GhostError('IncorrectUsageError', { message: 'The {{link_class}} helper requires a for="" attribute.' });
  const href = String(hash.for ?? '');
  return new SafeString(linkClasses(envOf(options).siteUrl, href, options).join(' '));
}

export function link(this: unknown, options: Options) {
  const hash = { ...(options.hash as Record<string, unknown>) };
  if (!('href' in hash)) throw new GhostError('IncorrectUsageError', { message: 'The {{#link}}{{/link}} helper requires an href="" attribute.' });
  const href = String(hash.href ?? '');
  const classes = linkClasses(envOf(options).siteUrl, href, options);
  for (const managed of ['href', 'class', 'activeClass', 'parentActiveClass']) delete hash[managed];
  const attrs = Object.entries(hash)
    .map(([key, value]) => `${key}="${String(value)}"`)
    .join('');
  const open = `<a ${classes.length ? `class="${classes.join(' ')}"` : ''} href="${href}" ${attrs}>`.replace(/\s{2,}/g, ' ').replace(/\s>/, '>');
  return new SafeString(`${open}${options.fn(this)}</a>`);
}

export function concat(...args: unknown[]) {
  const options = args.pop() as Options;
  return new SafeString(args.join(String(options.hash.separator ?? '')));
}

export function encode(value: unknown, options?: unknown) {
  return new SafeString(encodeURIComponent(String(value || options)));
}

export function raw(this: unknown, options: Options) {
  return options.fn(this);
}

/** `{{t "Read more"}}`: the theme's `locales/<locale>.json` translation, else the text, with `{name}` bindings. */
export function t(this: unknown, text: unknown, options: Options) {
  if (!text || String(text).length === 0) return '';
  const env = envOf(options);
  let out = env.theme.translate(String(text), String(env.site.locale ?? 'en'));
  for (const [key, value] of Object.entries(options.hash ?? {})) out = out.split(`{${key}}`).join(String(value));
  return out;
}

export function search() {
  return new SafeString(
    '<button class="gh-search-icon" aria-label="search" data-ghost-search ' +
      'style="display: inline-flex; justify-content: center; align-items: center; width: 32px; height: 32px; padding: 0; border: 0; color: inherit; background-color: transparent; cursor: pointer; outline: none;">' +
      '<svg width="20" height="20" fill="none" viewBox="0 0 24 24"><path d="M14.949 14.949a1 1 0 0 1 1.414 0l6.344 6.344a1 1 0 0 1-1.414 1.414l-6.344-6.344a1 1 0 0 1 0-1.414Z" fill="currentColor"/>' +
      '<path d="M10 3a7 7 0 1 0 0 14 7 7 0 0 0 0-14Zm-9 7a9 9 0 1 1 18 0 9 9 0 0 1-18 0Z" fill="currentColor"/></svg></button>',
  );
}

export function comment_count(this: Record<string, unknown>, options: Options) {
  const hash = options.hash as Record<string, unknown>;
  const autowrap = hash.autowrap !== 'false';
  const tag = autowrap ? String(hash.autowrap || 'span') : 'script';
  const attr = (value: unknown) => (value === undefined ? '' : escape(String(value)));
  return new SafeString(
    `<script\n    data-ghost-comment-count="${attr(this.id)}"\n    data-ghost-comment-count-empty="${attr(hash.empty ?? '')}"\n    data-ghost-comment-count-singular="${attr(hash.singular ?? 'comment')}"\n    data-ghost-comment-count-plural="${attr(hash.plural ?? 'comments')}"\n    data-ghost-comment-count-tag="${tag}"\n    data-ghost-comment-count-class-name="${attr(hash.class)}"\n    data-ghost-comment-count-autowrap="${autowrap ? 'true' : 'false'}"\n>\n</script>`,
  );
}

/** Comments are not built (Ghost's comments app needs its comments API): nothing, as Ghost prints with comments off. */
export function comments() {
  return undefined;
}

/** Recommendations on the site are not built yet: nothing, as Ghost prints with recommendations off (its default). */
export function recommendations() {
  return undefined;
}

export function readable_url(value: unknown) {
  return new SafeString(
    String(value ?? '')
      .replace(/^https?:\/\/(www\.)?/, '')
      .replace(/\/$/, ''),
  );
}

export function content_api_url(this: unknown, options: Options) {
  return new SafeString(`${envOf(options).siteUrl}ghost/api/content/`);
}
