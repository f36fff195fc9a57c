import type { Ctx } from '../ctx.js';
import type { PostRow, TagRow, UserRow } from '../db/schema.js';
import { browseRows } from '../browse/browse.js';
import { parseBrowseParams, type BrowseParams } from '../browse/params.js';
import { authorUrl, tagUrl } from '../content/urls.js';
import { POST_TYPES_BROWSE } from '../resources/posts/posts.browse.js';
import { CONTENT_INCLUDES, FORMATS, type PostType } from '../resources/posts/posts.schemas.js';
import { findPublishedPost } from '../resources/posts/posts.content.queries.js';
import { contentPosts } from '../resources/posts/posts.responses.js';
import { TAGS_BROWSE } from '../resources/tags/tags.browse.js';
import { findPublicTag, postCountsOfTags } from '../resources/tags/tags.queries.js';
import { presentContentTag } from '../resources/tags/tags.present.js';
import { USERS_BROWSE } from '../resources/users/users.browse.js';
import { postCountsOfAuthors } from '../resources/users/users.queries.js';
import { findPublicAuthor } from '../resources/authors/authors.queries.js';
import { presentContentAuthor } from '../resources/authors/authors.present.js';

/**
 * The site reads what the Content API answers, through the same browse specs, queries and presenters: a
 * theme sees the shapes a Content API client sees (Ghost's frontend calls its public API in-process too).
 */
export type { Entity, Page, SiteResource } from './helpers/env.js';
import type { Entity, Page, SiteResource } from './helpers/env.js';

const postView = (ctx: Ctx, params: BrowseParams) => ({
  siteUrl: ctx.site.url,
  engine: ctx.engine,
  include: params.include,
  formats: new Set((params.formats ?? ['html']).filter((format): format is 'html' | 'plaintext' => format === 'html' || format === 'plaintext')),
  // A signed-in member's pages carry their access (gated html), as the Content API answers them.
  ...(ctx.member ? { member: ctx.member } : {}),
});

async function presentTags(ctx: Ctx, rows: TagRow[], include: readonly string[]): Promise<Entity[]> {
  const counts = include.includes('count.posts')
    ? await postCountsOfTags(
        ctx.db,
        rows.map((row) => row.id),
        'content',
      )
    : null;
  return rows.map((row) =>
    presentContentTag(row, ctx.site.url, {
      url: tagUrl(ctx.site.url, row.slug, row.visibility === 'public'),
      ...(counts ? { count: { posts: counts.get(row.id) ?? 0 } } : {}),
    }),
  );
}

async function presentAuthors(ctx: Ctx, rows: UserRow[], include: readonly string[]): Promise<Entity[]> {
  const counts = include.includes('count.posts')
    ? await postCountsOfAuthors(
        ctx.db,
        rows.map((row) => row.id),
        'content',
      )
    : null;
  return rows.map((row) =>
    presentContentAuthor(row, {
      url: authorUrl(ctx.site.url, row.slug, true),
      ...(counts ? { count: { posts: counts.get(row.id) ?? 0 } } : {}),
    }),
  );
}

const RULES = {
  posts: { include: CONTENT_INCLUDES, formats: FORMATS },
  pages: { include: CONTENT_INCLUDES, formats: FORMATS },
  tags: { include: ['count.posts'] },
  authors: { include: ['count.posts'] },
} as const;

/** A Content API browse of `resource` with query options as the API takes them (`filter`, `limit`, `page`, `include`, `order`). */
export async function browse(ctx: Ctx, resource: SiteResource, query: Record<string, unknown>): Promise<Page> {
  const params = parseBrowseParams(query, RULES[resource]);
  if (resource === 'posts' || resource === 'pages') {
    const type: PostType = resource === 'posts' ? 'post' : 'page';
    const { rows, meta } = await browseRows<PostRow>(ctx.db, ctx.engine, POST_TYPES_BROWSE[type], 'content', params);
    return { items: (await contentPosts(ctx.db, rows, postView(ctx, params))) as Entity[], pagination: meta.pagination };
  }
  if (resource === 'tags') {
    const { rows, meta } = await browseRows<TagRow>(ctx.db, ctx.engine, TAGS_BROWSE, 'content', params);
    return { items: await presentTags(ctx, rows, params.include), pagination: meta.pagination };
  }
  const { rows, meta } = await browseRows<UserRow>(ctx.db, ctx.engine, USERS_BROWSE, 'content', params);
  return { items: await presentAuthors(ctx, rows, params.include), pagination: meta.pagination };
}

/** A published post or page by slug or id, with tags, authors and tiers as the site shows it. */
export async function readPost(ctx: Ctx, type: PostType, key: { slug: string } | { id: string }): Promise<Entity | undefined> {
  const row = await findPublishedPost(ctx.db, key, type, { wholePlaintext: false });
  if (!row) return undefined;
  const params = parseBrowseParams({ include: 'authors,tags,tiers' }, RULES.posts);
  return ((await contentPosts(ctx.db, [row], postView(ctx, params))) as Entity[])[0];
}

export async function readTag(ctx: Ctx, key: { slug: string } | { id: string }): Promise<Entity | undefined> {
  const row = await findPublicTag(ctx.db, key);
  return row && (await presentTags(ctx, [row], ['count.posts']))[0];
}

export async function readAuthor(ctx: Ctx, key: { slug: string } | { id: string }): Promise<Entity | undefined> {
  const row = await findPublicAuthor(ctx.db, key);
  return row && (await presentAuthors(ctx, [row], ['count.posts']))[0];
}

export type EntityKey = { slug: string } | { id: string };

/** The reads a page makes (its route's data, `{{#get}}`, the adjacent posts, the feed): the database's answers, or kept ones. */
export interface SiteReads {
  browse(resource: SiteResource, query: Record<string, unknown>): Promise<Page>;
  readPost(type: PostType, key: EntityKey): Promise<Entity | undefined>;
  readTag(key: EntityKey): Promise<Entity | undefined>;
  readAuthor(key: EntityKey): Promise<Entity | undefined>;
}

/** Every read asks the database (a signed-in member's pages: their access decides what the posts hold). */
export function directReads(ctx: Ctx): SiteReads {
  return {
    browse: (resource, query) => browse(ctx, resource, query),
    readPost: (type, key) => readPost(ctx, type, key),
    readTag: (key) => readTag(ctx, key),
    readAuthor: (key) => readAuthor(ctx, key),
  };
}
