import { escape, SafeString, envOf, type Options } from './env.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Ghost's `meta/title.js`: the page's title from its context. */
export function metaTitle(data: Obj, root: Obj, context: readonly string[], siteTitle: string, pageHash?: string): string {
  const pagination = root.pagination as Obj | undefined;
  const pageString =
    pagination && pagination.total > 1 ? (pageHash !== undefined ? pageHash.replace('%', String(pagination.page)) : ` (Page ${pagination.page})`) : '';
  const dashSite = siteTitle ? ` - ${siteTitle}` : '';
  const dashSitePage = siteTitle || pageString ? ` -${siteTitle ? ` ${siteTitle}` : ''}${pageString}` : '';
  let title: string;
  if (data.meta_title) title = data.meta_title;
  else if (context.includes('home')) title = root._render.site.meta_title || siteTitle;
  else if (context.includes('author') && data.author && context.includes('paged')) title = data.author.name + dashSitePage;
  else if (context.includes('author') && data.author) title = data.author.name + dashSite;
  else if (context.includes('tag') && data.tag && context.includes('paged')) title = data.tag.meta_title || data.tag.name + dashSitePage;
  else if (context.includes('tag') && data.tag) title = data.tag.meta_title || data.tag.name + dashSite;
  else if ((context.includes('post') || context.includes('page')) && data.post) title = data.post.meta_title || data.post.title;
  else if (context.includes('page') && data.page) title = data.page.meta_title || data.page.title;
  else title = siteTitle + pageString;
  return String(title || '').trim();
}

/** Ghost's `meta/description.js` without a property (the `<meta name="description">` value). */
export function metaDescription(data: Obj, root: Obj, context: readonly string[]): string | null {
  const site = root._render.site as Obj;
  let description = '';
  if (data.meta_description) description = data.meta_description;
  else if (context.includes('home')) description = site.meta_description || site.description;
  else if (context.includes('author') && data.author) description = context.includes('paged') ? '' : data.author.meta_description || data.author.bio || '';
  else if (context.includes('tag') && data.tag) description = context.includes('paged') ? '' : data.tag.meta_description || data.tag.description || '';
  else if ((context.includes('post') || context.includes('page')) && data.post) description = data.post.meta_description || data.post.custom_excerpt || '';
  else if (context.includes('page') && data.page) description = data.page.meta_description || data.page.custom_excerpt || '';
  return String(description || '').trim() || null;
}

export function meta_title(this: Obj, options: Options) {
  const env = envOf(options);
  return metaTitle(this, options.data.root, env.context, String(env.site.title ?? ''), options.hash.page as string | undefined);
}

export function meta_description(this: Obj, options: Options) {
  return metaDescription(this, options.data.root, envOf(options).context) ?? '';
}

export function title(this: Obj) {
  return new SafeString(escape(String(this.title || '')));
}
