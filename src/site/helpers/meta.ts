import { escape, SafeString, envOf, type Options } from './env.js';
import { truncate } from './excerpt.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Ghost's page title from the context (`meta/title.js`); `property` `og`/`twitter` prefers those titles. */
export function metaTitle(data: Obj, context: readonly string[], site: Obj, property?: 'og' | 'twitter', pageHash?: string): string {
  const siteTitle = String(site.title ?? '');
  const pagination = data.pagination as Obj | undefined;
  const pageString =
    pagination && pagination.total > 1 ? (pageHash !== undefined ? pageHash.replace('%', String(pagination.page)) : ` (Page ${pagination.page})`) : '';
  const dashSite = siteTitle ? ` - ${siteTitle}` : '';
  const dashSitePage = siteTitle || pageString ? ` -${siteTitle ? ` ${siteTitle}` : ''}${pageString}` : '';
  const key = `${property ?? 'meta'}_title`;
  let title: string;
  if (data.meta_title) title = data.meta_title;
  else if (context.includes('home')) title = (property ? site[key] : site.meta_title) || siteTitle;
  else if (context.includes('author') && data.author && context.includes('paged')) title = data.author.name + dashSitePage;
  else if (context.includes('author') && data.author) title = data.author.name + dashSite;
  else if (context.includes('tag') && data.tag && context.includes('paged')) title = data.tag.meta_title || data.tag.name + dashSitePage;
  else if (context.includes('tag') && data.tag) title = data.tag[key] || data.tag.meta_title || data.tag.name + dashSite;
  else if ((context.includes('post') || context.includes('page')) && data.post) title = data.post[key] || data.post.meta_title || data.post.title;
  else if (context.includes('page') && data.page) title = data.page[key] || data.page.meta_title || data.page.title;
  else title = siteTitle + pageString;
  return String(title || '').trim();
}

/** Ghost's description from the context (`meta/description.js`); with `property` the social fallbacks apply. */
export function metaDescription(data: Obj, context: readonly string[], site: Obj, property?: 'og' | 'twitter'): string | null {
  let description = '';
  const entry = (item: Obj) =>
    property
      ? item[`${property}_description`] ||
        item.custom_excerpt ||
        item.meta_description ||
        truncate(String(item.excerpt || ''), { words: 50 }) ||
        site.description ||
        ''
      : item.meta_description || item.custom_excerpt || '';
  if (data.meta_description) description = data.meta_description;
  else if (context.includes('home')) description = (property ? site[`${property}_description`] : null) || site.meta_description || site.description || '';
  else if (context.includes('author') && data.author)
    description =
      !property && context.includes('paged') ? '' : data.author.meta_description || data.author.bio || (property ? site.meta_description : '') || '';
  else if (context.includes('tag') && data.tag)
    description =
      !property && context.includes('paged')
        ? ''
        : data.tag[`${property}_description`] || data.tag.meta_description || data.tag.description || (property ? site.meta_description : '') || '';
  else if ((context.includes('post') || context.includes('page')) && data.post) description = entry(data.post);
  else if (context.includes('page') && data.page) description = entry(data.page);
  return String(description || '').trim() || null;
}

export function meta_title(this: Obj, options: Options) {
  const env = envOf(options);
  return metaTitle({ ...options.data.root, ...this }, env.context, env.site, undefined, options.hash.page as string | undefined);
}

export function meta_description(this: Obj, options: Options) {
  const env = envOf(options);
  return metaDescription({ ...options.data.root, ...this }, env.context, env.site) ?? '';
}

export function title(this: Obj) {
  return new SafeString(escape(String(this.title || '')));
}
