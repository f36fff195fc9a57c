import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../ctx.js';
import type { PostRow, TagRow, UserRow } from '../../db/schema.js';
import type { Permission } from '../../auth/permissions.js';
import { browseRows, type Api, type BrowseSpec } from '../../browse/browse.js';
import { parseBrowseParams } from '../../browse/params.js';
import { isoDate } from '../../content/dates.js';
import { fromStorageUrl } from '../../content/ghost-url.js';
import { excerptOf } from '../../content/text.js';
import { authorUrl, postUrl, tagUrl } from '../../content/urls.js';
import { readSettings } from '../../settings/settings.js';
import { POST_TYPES_BROWSE } from '../posts/posts.browse.js';
import { zonedIso } from '../posts/posts.dates.js';
import { TAGS_BROWSE } from '../tags/tags.browse.js';
import { tagsWithPublishedPosts } from '../tags/tags.queries.js';
import { USERS_BROWSE } from '../users/users.browse.js';
import { authorsWithPublishedPosts } from '../users/users.queries.js';

/**
 * The search index the admin app's search and Sodo Search (the theme's search box) load once and search in
 * the browser: up to 10,000 records of a kind, most recently updated first, with the few fields each needs
 * (`core/server/api/endpoints/search-index*.js` and its output serializer).
 */
async function indexRows<Row>(ctx: Ctx, spec: BrowseSpec, api: Api, fields: string, filter?: string): Promise<Row[]> {
  const params = parseBrowseParams({ limit: '10000', order: 'updated_at desc', fields, ...(filter ? { filter } : {}) });
  return (await browseRows<Row>(ctx.db, ctx.engine, spec, api, params)).rows;
}

async function adminPosts(ctx: Ctx, type: 'post' | 'page') {
  const rows = await indexRows<PostRow>(ctx, POST_TYPES_BROWSE[type], 'admin', 'id,url,title,status,published_at,visibility');
  return rows.map((row) => ({
    id: row.id,
    url: postUrl(ctx.site.url, row),
    title: row.title,
    status: row.status,
    published_at: isoDate(row.published_at),
    visibility: row.visibility,
  }));
}

async function tagsIndex(ctx: Ctx, api: Api) {
  const rows = await indexRows<TagRow>(ctx, TAGS_BROWSE, api, 'id,slug,name,url', api === 'content' ? 'visibility:public' : undefined);
  const published = await tagsWithPublishedPosts(
    ctx.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    url: tagUrl(ctx.site.url, row.slug, row.visibility === 'public' && published.has(row.id)),
  }));
}

async function usersIndex(ctx: Ctx, api: Api) {
  const rows = await indexRows<UserRow>(ctx, USERS_BROWSE, api, 'id,slug,url,name,profile_image');
  const published = await authorsWithPublishedPosts(
    ctx.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    url: authorUrl(ctx.site.url, row.slug, published.has(row.id)),
    profile_image: fromStorageUrl(row.profile_image, ctx.site.url),
  }));
}

/** Content posts: published only; a post for members or tiers shows no excerpt to the anonymous reader. */
async function contentPosts(ctx: Ctx) {
  const [rows, settings] = await Promise.all([
    indexRows<PostRow>(ctx, POST_TYPES_BROWSE.post, 'content', 'id,slug,title,excerpt,url,updated_at,visibility'),
    readSettings(ctx.db, ['timezone']),
  ]);
  const timezone = settings.get('timezone') || 'Etc/UTC';
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.visibility === 'public' ? excerptOf({ custom_excerpt: row.custom_excerpt, plaintext: fromStorageUrl(row.plaintext, ctx.site.url) }) : '',
    url: postUrl(ctx.site.url, row),
    updated_at: zonedIso(row.updated_at, timezone),
    visibility: row.visibility,
  }));
}

function indexRoute(app: FastifyInstance, path: string, key: string, permission: Permission | null, load: (ctx: Ctx) => Promise<unknown[]>) {
  const method = `fetch${key[0]!.toUpperCase()}${key.slice(1)}`;
  const config = { frame: { docName: 'search_index', method }, ...(permission ? { permission } : {}) };
  app.get(`/search-index/${path}/`, { config }, async (request) => ({ [key]: await load(request.ctx) }));
}

export function searchIndexAdminRoutes(app: FastifyInstance) {
  indexRoute(app, 'posts', 'posts', 'post.browse', (ctx) => adminPosts(ctx, 'post'));
  indexRoute(app, 'pages', 'pages', 'post.browse', (ctx) => adminPosts(ctx, 'page'));
  indexRoute(app, 'tags', 'tags', 'tag.browse', (ctx) => tagsIndex(ctx, 'admin'));
  indexRoute(app, 'users', 'users', 'user.browse', (ctx) => usersIndex(ctx, 'admin'));
}

export function searchIndexContentRoutes(app: FastifyInstance) {
  indexRoute(app, 'posts', 'posts', null, contentPosts);
  indexRoute(app, 'authors', 'authors', null, (ctx) => usersIndex(ctx, 'content'));
  indexRoute(app, 'tags', 'tags', null, (ctx) => tagsIndex(ctx, 'content'));
}
