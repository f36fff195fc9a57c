import { errors } from '../errors.js';
import type { Ctx } from '../ctx.js';
import type { CompiledTheme } from './engine.js';
import type { Entity, SiteReads } from './data.js';
import type { DataSpec } from '../resources/route-settings/route-settings.validate.js';
import type { Permalinks } from './permalinks.js';
import { handlebars } from './handlebars.js';
import { readPreview } from './preview.js';
import type { Collection, Match } from './routing.js';
import { entriesTemplate, entryTemplate, pick } from './templates.js';

/** A page to render: its template, root data, `@page` values and Ghost's context names. */
export interface PagePlan {
  template: string;
  data: Record<string, unknown>;
  context: string[];
  page?: Record<string, unknown>;
  /** The Content-Type a custom route's `content_type` asks for, when its own template was picked. */
  type?: string;
  /** Never kept by a cache (draft previews). */
  noStore?: boolean;
}

/**
 * A permalink that belongs to another URL of the same post (Ghost's 301 to the post's own URL), or a
 * preview's `edit/` (a 302 to the admin app's editor, an absolute URL).
 */
export class MovedTo extends Error {
  constructor(
    readonly path: string,
    readonly status: 301 | 302 = 301,
    readonly absolute = false,
  ) {
    super('moved');
  }
}

/** Ghost prepares each resource before a theme sees it: the caption is HTML, and `show_title_and_feature_image` moves to `@page`. */
function prepare(entity: Entity): Entity {
  const out = { ...entity };
  if (out.feature_image_caption) out.feature_image_caption = new (handlebars().SafeString)(String(out.feature_image_caption));
  delete out.show_title_and_feature_image;
  return out;
}

const pagingContext = (page: number) => (page > 1 ? ['paged'] : []);

/** Posts as the routes place them: each post's `url` is its collection's permalink. */
const placed = (posts: Entity[], links: Permalinks) => posts.map((post) => prepare({ ...post, url: links.postUrl(post) }));

/** A route's `data`: each named query read (one resource) or browsed (a list with its pagination), as Ghost's fetch-data. */
async function routeData(reads: SiteReads, spec: DataSpec | null, links: Permalinks): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(spec?.query ?? {})) {
    const options = query.options;
    if (query.type === 'read') {
      const slug = String(options.slug ?? '');
      let entity: Entity | undefined;
      if (query.resource === 'tags') entity = await reads.readTag({ slug });
      else if (query.resource === 'authors') entity = await reads.readAuthor({ slug });
      else entity = await reads.readPost(query.resource === 'posts' ? 'post' : 'page', { slug });
      if (!entity) throw errors.notFound('Resource could not be found.');
      out[name] = query.resource === 'posts' ? placed([entity], links)[0] : prepare(entity);
      continue;
    }
    const withRelations = query.resource === 'posts' || query.resource === 'pages' ? { include: 'authors,tags,tiers' } : {};
    const { items, pagination } = await reads.browse(query.resource, { ...options, ...withRelations });
    const shown = query.resource === 'posts' ? placed(items, links) : items.map(prepare);
    out[name] = Object.assign(shown, { [query.resource]: shown, pagination });
  }
  return out;
}

/** Ghost's context for a route's data: `page`, else `post`, else `tag` when the data has one. */
function dataContext(context: string[], data: Record<string, unknown>): string[] {
  const extra = data.page ? 'page' : data.post ? 'post' : data.tag ? 'tag' : null;
  return extra && !context.includes(extra) ? [...context, extra] : context;
}

interface ListOptions {
  name: string;
  /** A collection shows only the posts it owns (others on its pages belong to an earlier collection); a channel shows all. */
  collection?: Collection;
  filter: string | null;
  order: string | null;
  limit: number | null;
  templates: string[];
  data: DataSpec | null;
  frontPage: boolean;
}

/** A collection's or channel's list page (404 past its last page, as Ghost). */
async function listPage(reads: SiteReads, theme: CompiledTheme, list: ListOptions, page: number, links: Permalinks): Promise<PagePlan> {
  const { items, pagination } = await reads.browse('posts', {
    limit: String(list.limit ?? (theme.config.posts_per_page || 5)),
    page: String(page),
    include: 'authors,tags,tiers',
    ...(list.filter ? { filter: list.filter } : {}),
    ...(list.order ? { order: list.order } : {}),
  });
  if (page > pagination.pages) throw errors.notFound('Page not found.');
  const { collection } = list;
  const posts = collection ? items.filter((post) => links.owns(collection, post)) : items;
  const data = { ...(await routeData(reads, list.data, links)), posts: placed(posts, links), pagination };
  return {
    template: entriesTemplate(theme, { name: list.name, templates: list.templates, frontPage: list.frontPage ? 'home' : null }),
    data,
    context: dataContext([...pagingContext(page), ...(list.frontPage ? ['home'] : []), list.name], data),
  };
}

/**
 * What a matched route shows, read through the Content API's queries (`reads`: the content version's kept
 * reads, or the database's for a page read for itself). Throws NotFound when the route has nothing at that
 * path (the caller then offers the path to the next matching route), MovedTo when a post's permalink belongs
 * to another collection. A preview reads its draft from the database through `ctx`, never from `reads`:
 * what is kept per version is published content only.
 */
export async function planPage(
  ctx: Ctx,
  reads: SiteReads,
  theme: CompiledTheme,
  match: Match,
  relativeUrl: string,
  links: Permalinks,
  query: Record<string, unknown> = {},
): Promise<PagePlan> {
  if (match.kind === 'preview') return previewPage(ctx, theme, match, links, query);
  if (match.kind === 'collection') {
    const { collection } = match;
    return listPage(reads, theme, { ...collection, collection, frontPage: relativeUrl === '/' }, match.page, links);
  }
  if (match.kind === 'channel') {
    const { route, name } = match.entry;
    return listPage(reads, theme, { ...route, name, frontPage: false }, match.page, links);
  }
  if (match.kind === 'static') {
    const { route, name } = match.entry;
    const template = pick(theme, route.templates, null);
    if (!template) {
      throw errors.incorrectUsage(`Missing template ${route.templates.map((x) => `${x}.hbs`).join(', ')} for route "${relativeUrl}".`);
    }
    const data = await routeData(reads, route.data, links);
    // Ghost shows a page named in `data` as the route's post too.
    if (data.page && !data.post) data.post = data.page;
    return {
      template,
      data,
      context: dataContext([...(relativeUrl === '/' ? ['home'] : []), name], data),
      ...(route.contentType ? { type: route.contentType } : {}),
    };
  }
  if (match.kind === 'taxonomy') {
    const entity = match.taxonomy.name === 'tag' ? await reads.readTag({ slug: match.slug }) : await reads.readAuthor({ slug: match.slug });
    if (!entity) throw errors.notFound('Page not found');
    const { items, pagination } = await reads.browse('posts', {
      limit: String(theme.config.posts_per_page || 5),
      page: String(match.page),
      include: 'authors,tags,tiers',
      filter: match.taxonomy.filter(String(entity.slug)),
    });
    if (match.page > pagination.pages) throw errors.notFound('Page not found.');
    return {
      template: entriesTemplate(theme, { name: match.taxonomy.name, slug: match.slug }),
      data: { posts: placed(items, links), pagination, [match.taxonomy.name]: entity },
      context: [...pagingContext(match.page), match.taxonomy.name],
    };
  }
  if (match.kind === 'entry') {
    const key = match.params.slug !== undefined ? { slug: match.params.slug } : match.params.id !== undefined ? { id: match.params.id } : null;
    const post = key && (await reads.readPost('post', key));
    if (!post) throw errors.notFound('Page not found');
    const path = links.postPath(post);
    // Ghost's entry controller: a post found under another collection's permalink moves to its own URL.
    if (path !== relativeUrl) {
      if (path === null) throw errors.notFound('Page not found');
      throw new MovedTo(path);
    }
    const [shown] = placed([post], links);
    return { template: entryTemplate(theme, post, 'post'), data: { post: shown }, context: ['post'] };
  }
  const page = await reads.readPost('page', { slug: match.slug });
  if (!page) throw errors.notFound('Page not found');
  const prepared = prepare(page);
  return {
    template: entryTemplate(theme, page, 'page'),
    data: { post: prepared, page: prepared },
    context: ['page'],
    page: { show_title_and_feature_image: page.show_title_and_feature_image ?? true },
  };
}

/** `/p/{uuid}/`: a draft as the theme renders it, with Ghost's preview context (noindex); published content moves to its URL. */
async function previewPage(
  ctx: Ctx,
  theme: CompiledTheme,
  match: Extract<Match, { kind: 'preview' }>,
  links: Permalinks,
  query: Record<string, unknown>,
): Promise<PagePlan> {
  const found = await readPreview(ctx, match.uuid, query.member_status);
  if (!found) throw errors.notFound('Page not found');
  const { entry, type, status } = found;
  if (match.options !== null) {
    if (match.options.toLowerCase() !== 'edit') throw errors.notFound('Page not found');
    throw new MovedTo(`${ctx.site.url}ghost/#/editor/${type}/${String(entry.id)}/`, 302, true);
  }
  if (status === 'published') throw new MovedTo(type === 'post' ? (links.postPath(entry) ?? '/404/') : `/${String(entry.slug)}/`);
  // A sent e-mail-only post is read at its e-mail URL, never as a preview (it may hold members-only content).
  if (status === 'sent') throw new MovedTo(`/email/${String(entry.uuid)}/`);
  const shown = prepare(type === 'post' ? { ...entry, url: links.postUrl(entry) } : entry);
  if (type === 'page') {
    return {
      template: entryTemplate(theme, entry, 'page'),
      data: { post: shown, page: shown },
      context: ['preview', 'page'],
      page: { show_title_and_feature_image: entry.show_title_and_feature_image ?? true },
      noStore: true,
    };
  }
  return { template: entryTemplate(theme, entry, 'post'), data: { post: shown }, context: ['preview', 'post'], noStore: true };
}
