import type { Ctx } from '../ctx.js';
import type { PostRow } from '../db/schema.js';
import { browseRows } from '../browse/browse.js';
import { parseBrowseParams } from '../browse/params.js';
import { POST_TYPES_BROWSE } from '../resources/posts/posts.browse.js';
import type { Entity } from './data.js';
import { hasSimplePermalinks, type Collection, type SiteRoutes } from './routing.js';

/**
 * Which collection owns each post, and so its URL, as Ghost's URL service decides it: the first collection
 * (in routes.yaml order) whose filter the post matches owns it; a post no collection takes has no URL
 * (Ghost's `/404/`). With Ghost's default routes every post is the index's and nothing is read.
 */
export interface Permalinks {
  /** The path (within the site) of a published post, or null when no collection owns it. */
  postPath(post: Entity): string | null;
  /** The post's absolute URL, Ghost's `<site>/404/` when it has none. */
  postUrl(post: Entity): string;
  /** Whether `collection` owns the post (a collection's list shows only its own posts, as Ghost's). */
  owns(collection: Collection, post: Entity): boolean;
}

/** The ids of the published posts each filtered collection matches (null for one without a filter: it takes every post). */
async function collectionMembers(ctx: Ctx, collections: readonly Collection[]): Promise<(Set<string> | null)[]> {
  return Promise.all(
    collections.map(async (collection) => {
      if (!collection.filter) return null;
      const params = parseBrowseParams({ filter: collection.filter, limit: 'all' }, { include: [], formats: [] });
      const { rows } = await browseRows<PostRow>(ctx.db, ctx.engine, POST_TYPES_BROWSE.post, 'content', params);
      return new Set(rows.map((row) => row.id));
    }),
  );
}

const two = (n: number) => String(n).padStart(2, '0');

/** Fills `/:year/:month/:slug/` from a post, as Ghost's permalink replacement does (dates in the site's time zone). */
function fill(permalink: string, post: Entity, timezone: string): string {
  const published = new Date(String(post.published_at ?? Date.now()));
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(published)
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>;
  const primaryTag = post.primary_tag as Entity | null | undefined;
  const primaryAuthor = post.primary_author as Entity | null | undefined;
  const values: Record<string, string> = {
    slug: String(post.slug),
    id: String(post.id),
    uuid: String(post.uuid ?? ''),
    year: parts.year ?? String(published.getUTCFullYear()),
    month: parts.month ?? two(published.getUTCMonth() + 1),
    day: parts.day ?? two(published.getUTCDate()),
    primary_tag: primaryTag?.slug ? String(primaryTag.slug) : 'all',
    primary_author: primaryAuthor?.slug ? String(primaryAuthor.slug) : 'all',
  };
  return permalink.replace(/:(\w+)/g, (whole, name: string) => values[name] ?? whole);
}

export async function loadPermalinks(ctx: Ctx, routes: SiteRoutes, timezone: string): Promise<Permalinks> {
  const site = ctx.site.url.replace(/\/$/, '');
  if (hasSimplePermalinks(routes)) {
    return { postPath: (post) => `/${String(post.slug)}/`, postUrl: (post) => `${site}/${String(post.slug)}/`, owns: () => true };
  }
  const members = await collectionMembers(ctx, routes.collections);
  const ownerOf = (post: Entity) => routes.collections[members.findIndex((set) => set === null || set.has(String(post.id)))] ?? null;
  const postPath = (post: Entity): string | null => {
    const owner = ownerOf(post);
    return owner ? fill(owner.permalink, post, timezone) : null;
  };
  return { postPath, postUrl: (post) => `${site}${postPath(post) ?? '/404/'}`, owns: (collection, post) => ownerOf(post) === collection };
}
