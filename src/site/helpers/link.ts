import { GhostError } from '../../errors.js';
import { SafeString, envOf, type Options } from './env.js';

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
