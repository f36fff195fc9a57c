/**
 * Ghost's default routes as data (what a routes.yaml without custom entries gives): the index collection at
 * `/` with `/page/N/`, the tag and author taxonomies with paging and feeds, and entries at `/{slug}/`. The
 * theme-admin work replaces DEFAULT_ROUTES with the routes.yaml it reads; matching stays the same.
 */
export interface Taxonomy {
  name: 'tag' | 'author';
  /** URL segment before the slug (`/tag/{slug}/`). */
  path: string;
  /** NQL the posts of one term are browsed with. */
  filter: (slug: string) => string;
}

export interface SiteRoutes {
  collection: { path: '/'; name: 'index'; frontPageTemplate: 'home'; filter: string | null; order: string | null };
  taxonomies: readonly Taxonomy[];
}

export const DEFAULT_ROUTES: SiteRoutes = {
  collection: { path: '/', name: 'index', frontPageTemplate: 'home', filter: null, order: null },
  taxonomies: [
    { name: 'tag', path: 'tag', filter: (slug) => `tags:'${slug}'` },
    { name: 'author', path: 'author', filter: (slug) => `authors:'${slug}'` },
  ],
};

export type Match =
  | { kind: 'collection'; page: number; rss: boolean }
  | { kind: 'taxonomy'; taxonomy: Taxonomy; slug: string; page: number; rss: boolean }
  | { kind: 'entry'; slug: string };

const SLUG = '([a-z0-9\\-_%\\u0080-\\uFFFF]+)';
/** Page numbers up to 6 digits: a longer one is no page of any site (and would overflow an SQL offset). */
const PAGE = '(?:page/(\\d{1,6})/)?';

/** The route `path` (lower case, with its trailing slash) belongs to, or null. `/page/1/` is redirected before this. */
export function matchRoute(routes: SiteRoutes, path: string): Match | null {
  let m = new RegExp(`^/${PAGE}$`).exec(path);
  if (m) return { kind: 'collection', page: m[1] ? Number(m[1]) : 1, rss: false };
  if (path === '/rss/') return { kind: 'collection', page: 1, rss: true };
  for (const taxonomy of routes.taxonomies) {
    m = new RegExp(`^/${taxonomy.path}/${SLUG}/(?:(rss)/|${PAGE})$`, 'u').exec(path);
    if (m) return { kind: 'taxonomy', taxonomy, slug: decodeSlug(m[1]!), page: m[3] ? Number(m[3]) : 1, rss: m[2] === 'rss' };
  }
  m = new RegExp(`^/${SLUG}/$`, 'u').exec(path);
  if (m) return { kind: 'entry', slug: decodeSlug(m[1]!) };
  return null;
}

function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

/**
 * Ghost's redirects for site paths: upper case to lower case, a missing trailing slash added (for paths
 * without a file extension), `/page/1/` to the list itself, `/amp/` to the post. Returns the target or null.
 */
export function siteRedirect(path: string, search: string): string | null {
  let target = path;
  const last = target.split('/').pop() ?? '';
  if (!target.endsWith('/') && !last.includes('.')) target += '/';
  if (/[A-Z]/.test(target) && !target.startsWith('/assets/') && !target.startsWith('/content/')) target = target.toLowerCase();
  const pageOne = /^(.*\/)page\/1\/$/.exec(target);
  if (pageOne) target = pageOne[1]!;
  const amp = /^(\/[^/]+\/)amp\/$/.exec(target);
  if (amp && amp[1] !== '/tag/' && amp[1] !== '/author/') target = amp[1]!;
  return target === path ? null : target + search;
}
