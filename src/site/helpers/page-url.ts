import { type Options } from './env.js';

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
