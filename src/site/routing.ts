import type { CustomRoute, DataSpec, RouteSettings } from '../resources/route-settings/route-settings.validate.js';

/**
 * The site's routes as data, made from routes.yaml (Ghost's default routes when none was uploaded). The
 * order is Ghost's router order: custom routes and channels (file order), then each collection (its list,
 * pages, feed and post permalinks), then pages at `/{slug}/`, then the taxonomies. A request is offered to
 * each route it matches in turn, as Ghost's routers call `next()` when theirs has nothing there.
 */
export interface Taxonomy {
  name: 'tag' | 'author';
  /** Ghost's internal permalink notation (`/tag/:slug/`). */
  permalink: string;
  /** NQL the posts of one term are browsed with. */
  filter: (slug: string) => string;
}

export interface Collection {
  path: string;
  /** The router's name: `index` for `/`, else the path without slashes (`blog`), used for templates and context. */
  name: string;
  /** Ghost's internal notation (`/blog/:slug/`). */
  permalink: string;
  filter: string | null;
  order: string | null;
  limit: number | null;
  templates: string[];
  rss: boolean;
  data: DataSpec | null;
}

export interface CustomEntry {
  path: string;
  name: string;
  route: CustomRoute;
}

export interface SiteRoutes {
  custom: CustomEntry[];
  collections: Collection[];
  taxonomies: Taxonomy[];
}

const TAXONOMY_FILTERS: Record<Taxonomy['name'], (slug: string) => string> = {
  tag: (slug) => `tags:'${slug}'`,
  author: (slug) => `authors:'${slug}'`,
};

const routerName = (path: string) => (path === '/' ? 'index' : path.replace(/\//g, ''));

/** The routes a validated routes.yaml describes. */
export function siteRoutesFrom(settings: RouteSettings): SiteRoutes {
  return {
    custom: Object.entries(settings.routes).map(([path, route]) => ({ path, name: routerName(path), route })),
    collections: Object.entries(settings.collections).map(([path, collection]) => ({
      path,
      name: routerName(path),
      permalink: collection.permalink,
      filter: collection.filter,
      order: collection.order,
      limit: collection.limit,
      templates: collection.templates,
      rss: collection.rss,
      data: collection.data,
    })),
    taxonomies: (Object.entries(settings.taxonomies) as [Taxonomy['name'], string][]).map(([name, permalink]) => ({
      name,
      permalink,
      filter: TAXONOMY_FILTERS[name],
    })),
  };
}

/** Whether the routes are Ghost's defaults in effect: one unfiltered collection at `/` with `/{slug}/` permalinks. */
export function hasSimplePermalinks(routes: SiteRoutes): boolean {
  return routes.collections.length === 1 && routes.collections[0]!.permalink === '/:slug/' && !routes.collections[0]!.filter;
}

export type Match =
  | { kind: 'preview'; uuid: string; options: string | null }
  | { kind: 'collection'; collection: Collection; page: number; rss: boolean }
  | { kind: 'channel'; entry: CustomEntry; page: number; rss: boolean }
  | { kind: 'static'; entry: CustomEntry }
  | { kind: 'taxonomy'; taxonomy: Taxonomy; slug: string; page: number; rss: boolean }
  | { kind: 'entry'; collection: Collection; params: Record<string, string> }
  | { kind: 'page'; slug: string };

const SLUG = '([a-z0-9\\-_%\\u0080-\\uFFFF]+)';
/** Page numbers up to 6 digits: a longer one is no page of any site (and would overflow an SQL offset). */
const PAGE = '(?:page/(\\d{1,6})/)?';
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/blog/:slug/` as a regular expression, and the names of its parameters in order. */
function permalinkPattern(permalink: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const source = permalink
    .split(/(:\w+)/)
    .map((part) => {
      if (!part.startsWith(':')) return escape(part);
      names.push(part.slice(1));
      return part === ':slug' ? SLUG : '([^/]+)';
    })
    .join('');
  return { regex: new RegExp(`^${source}$`, 'u'), names };
}

/** A list at `path`: its pages and, when it has one, its feed. */
function listMatch(path: string, url: string, rss: boolean): { page: number; rss: boolean } | null {
  if (!url.startsWith(path)) return null;
  const rest = url.slice(path.length);
  if (rest === '') return { page: 1, rss: false };
  if (rss && rest === 'rss/') return { page: 1, rss: true };
  const m = /^page\/(\d{1,6})\/$/.exec(rest);
  return m ? { page: Number(m[1]), rss: false } : null;
}

/** Every route `path` (lower case, with its trailing slash) may belong to, in the order Ghost tries them. */
export function matchRoutes(routes: SiteRoutes, path: string): Match[] {
  const matches: Match[] = [];
  // Ghost's preview router comes before every other.
  const preview = /^\/p\/([^/]+)\/(?:([^/]+)\/)?$/.exec(path);
  if (preview) matches.push({ kind: 'preview', uuid: decodeSlug(preview[1]!), options: preview[2] ?? null });
  for (const entry of routes.custom) {
    if (entry.route.controller === 'channel') {
      const list = listMatch(entry.path, path, entry.route.rss);
      if (list) matches.push({ kind: 'channel', entry, ...list });
    } else if (path === entry.path) matches.push({ kind: 'static', entry });
  }
  for (const collection of routes.collections) {
    const list = listMatch(collection.path, path, collection.rss);
    if (list) matches.push({ kind: 'collection', collection, ...list });
    const { regex, names } = permalinkPattern(collection.permalink);
    const m = regex.exec(path);
    if (m) matches.push({ kind: 'entry', collection, params: Object.fromEntries(names.map((name, i) => [name, decodeSlug(m[i + 1]!)])) });
  }
  const page = new RegExp(`^/${SLUG}/$`, 'u').exec(path);
  if (page) matches.push({ kind: 'page', slug: decodeSlug(page[1]!) });
  for (const taxonomy of routes.taxonomies) {
    const [before, after = ''] = taxonomy.permalink.split(':slug');
    const m = new RegExp(`^${escape(before!)}${SLUG}${escape(after)}(?:(rss)/|${PAGE})$`, 'u').exec(path);
    if (m) matches.push({ kind: 'taxonomy', taxonomy, slug: decodeSlug(m[1]!), page: m[3] ? Number(m[3]) : 1, rss: m[2] === 'rss' });
  }
  return matches;
}

/**
 * The route that shows a tag, author, post or page through its `data` with `redirect` on (Ghost's dominant
 * router): the resource's own URL then moves there. Returns that route's path, or null.
 */
export function dataOwnerPath(routes: SiteRoutes, match: Match): string | null {
  let resource: string;
  let slug: string | undefined;
  if (match.kind === 'taxonomy') [resource, slug] = [match.taxonomy.name === 'tag' ? 'tags' : 'authors', match.slug];
  else if (match.kind === 'entry') [resource, slug] = ['posts', match.params.slug];
  else if (match.kind === 'page') [resource, slug] = ['pages', match.slug];
  else return null;
  const owners = [...routes.custom.map((entry) => ({ path: entry.path, data: entry.route.data })), ...routes.collections];
  const owner = owners.find(({ data }) => data?.router[resource]?.some((entry) => entry.redirect && entry.slug === slug));
  return owner ? owner.path : null;
}

/** The URL of a taxonomy term under the routes (`/tag/{slug}/`). */
export function taxonomyPath(taxonomy: Taxonomy, slug: string): string {
  return taxonomy.permalink.replace(':slug', slug);
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
