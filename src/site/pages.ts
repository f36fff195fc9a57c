import Handlebars from 'handlebars';
import { errors } from '../errors.js';
import type { CompiledTheme } from './engine.js';
import type { Entity, SiteReads } from './data.js';
import type { Match, SiteRoutes } from './routing.js';
import { entriesTemplate, entryTemplate } from './templates.js';

/** A page to render: its template, root data, `@page` values and Ghost's context names. */
export interface PagePlan {
  template: string;
  data: Record<string, unknown>;
  context: string[];
  page?: Record<string, unknown>;
}

/** Ghost prepares each resource before a theme sees it: the caption is HTML, and `show_title_and_feature_image` moves to `@page`. */
function prepare(entity: Entity): Entity {
  const out = { ...entity };
  if (out.feature_image_caption) out.feature_image_caption = new Handlebars.SafeString(String(out.feature_image_caption));
  delete out.show_title_and_feature_image;
  return out;
}

const pagingContext = (page: number) => (page > 1 ? ['paged'] : []);

/**
 * What a matched route shows, read through the Content API's queries: a list page (404 past its last page,
 * as Ghost), a tag or author page (404 for an unknown slug), or a post or page by slug.
 */
export async function planPage(reads: SiteReads, theme: CompiledTheme, routes: SiteRoutes, match: Match, relativeUrl: string): Promise<PagePlan> {
  const limit = String(theme.config.posts_per_page || 5);
  if (match.kind === 'collection') {
    const { items, pagination } = await reads.browse('posts', {
      limit,
      page: String(match.page),
      include: 'authors,tags,tiers',
      ...(routes.collection.filter ? { filter: routes.collection.filter } : {}),
      ...(routes.collection.order ? { order: routes.collection.order } : {}),
    });
    if (match.page > pagination.pages) throw errors.notFound('Page not found.');
    const context = [...pagingContext(match.page), ...(relativeUrl === '/' ? ['home'] : []), 'index'];
    return {
      template: entriesTemplate(theme, { name: 'index', frontPage: relativeUrl === '/' ? routes.collection.frontPageTemplate : null }),
      data: { posts: items.map(prepare), pagination },
      context,
    };
  }
  if (match.kind === 'taxonomy') {
    const entity = match.taxonomy.name === 'tag' ? await reads.readTag({ slug: match.slug }) : await reads.readAuthor({ slug: match.slug });
    if (!entity) throw errors.notFound('Page not found');
    const { items, pagination } = await reads.browse('posts', {
      limit,
      page: String(match.page),
      include: 'authors,tags,tiers',
      filter: match.taxonomy.filter(String(entity.slug)),
    });
    if (match.page > pagination.pages) throw errors.notFound('Page not found.');
    const context = [...pagingContext(match.page), match.taxonomy.name];
    return {
      template: entriesTemplate(theme, { name: match.taxonomy.name, slug: match.slug }),
      data: { posts: items.map(prepare), pagination, [match.taxonomy.name]: entity },
      context,
    };
  }
  const post = await reads.readPost('post', { slug: match.slug });
  if (post) return { template: entryTemplate(theme, post, 'post'), data: { post: prepare(post) }, context: ['post'] };
  const page = await reads.readPost('page', { slug: match.slug });
  if (page) {
    const prepared = prepare(page);
    return {
      template: entryTemplate(theme, page, 'page'),
      data: { post: prepared, page: prepared },
      context: ['page'],
      page: { show_title_and_feature_image: page.show_title_and_feature_image ?? true },
    };
  }
  throw errors.notFound('Page not found');
}
