import { createRequire } from 'node:module';
import type { Ctx } from '../ctx.js';
import { errors } from '../errors.js';
import type { Entity, SiteReads } from './data.js';
import type { Permalinks } from './permalinks.js';
import { taxonomyPath, type Match } from './routing.js';

const require = createRequire(import.meta.url);
type Downsize = (text: string, options: { words?: number }) => string;
let downsizeLoaded: Downsize | undefined;
/** Loaded with the first feed: it brings xregexp, which a server answering only the APIs never needs. */
const downsize: Downsize = (text, options) => (downsizeLoaded ??= require('downsize') as Downsize)(text, options);

const cdata = (text: unknown) => `<![CDATA[${String(text ?? '').replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
const xmlAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Ghost serialises post html through cheerio before it goes in the feed, which re-encodes quotes in text as
 * entities; the same is done here for text between tags (markup is left as the renderer wrote it).
 */
const reencodeText = (html: string) => html.replace(/>([^<]*)</g, (_, text: string) => `>${text.replace(/'/g, '&apos;').replace(/"/g, '&quot;')}<`);

function item(post: Entity): string {
  let html = reencodeText(String(post.html ?? ''));
  const tags = ((post.tags as Entity[] | undefined) ?? []).filter((tag) => tag.visibility !== 'internal');
  const author = (post.primary_author as Entity | null | undefined)?.name;
  const description = post.custom_excerpt || post.meta_description || downsize(html, { words: 50 });
  const parts = [
    `<title>${cdata(post.title)}</title>`,
    `<description>${cdata(description)}</description>`,
    `<link>${xmlText(String(post.url))}</link>`,
    `<guid isPermaLink="false">${xmlText(String(post.id))}</guid>`,
    ...tags.map((tag) => `<category>${cdata(tag.name)}</category>`),
    ...(author ? [`<dc:creator>${cdata(author)}</dc:creator>`] : []),
    `<pubDate>${new Date(String(post.published_at)).toUTCString()}</pubDate>`,
  ];
  if (post.feature_image) {
    const image = String(post.feature_image);
    parts.push(`<media:content url="${xmlAttr(image)}" medium="image"/>`);
    const img = `<img src="${xmlAttr(image)}" alt="${xmlAttr(String(post.title ?? ''))}">`;
    html = html.includes('<p') ? html.replace(/<p[\s>]/, (p) => img + p) : html;
  }
  parts.push(`<content:encoded>${cdata(html)}</content:encoded>`);
  return `<item>${parts.join('')}</item>`;
}

/** Where a feed reads: the version's kept reads and settings, and a keeper of entries (or a maker, for a feed read for itself). */
export interface FeedSources {
  reads: SiteReads;
  settings: ReadonlyMap<string, string | null>;
  keep: <T>(key: string, make: () => T) => T;
}

/**
 * A list's feed (`/rss/`, `/tag/{slug}/rss/`, `/author/{slug}/rss/`, a collection's or a channel's `rss/`):
 * its newest 15 posts as Ghost's feed (the `rss` package's layout), each linked at its permalink.
 */
export async function feedFor(ctx: Ctx, { reads, settings, keep }: FeedSources, match: Match, links: Permalinks): Promise<string> {
  const siteTitle = settings.get('title') ?? '';
  let title = siteTitle;
  let filter: string | null = null;
  let order: string | null = null;
  let path = 'rss/';
  if (match.kind === 'taxonomy') {
    const entity = match.taxonomy.name === 'tag' ? await reads.readTag({ slug: match.slug }) : await reads.readAuthor({ slug: match.slug });
    if (!entity) throw errors.notFound('Page not found');
    title = `${String(entity.name)} - ${siteTitle}`;
    filter = match.taxonomy.filter(String(entity.slug));
    path = `${taxonomyPath(match.taxonomy, String(entity.slug)).slice(1)}rss/`;
  } else if (match.kind === 'collection' || match.kind === 'channel') {
    const list = match.kind === 'collection' ? match.collection : { ...match.entry.route, path: match.entry.path };
    filter = list.filter;
    order = list.order;
    path = `${list.path.slice(1)}rss/`;
  }
  const { items: found } = await reads.browse('posts', { include: 'authors,tags,tiers', ...(filter ? { filter } : {}), ...(order ? { order } : {}) });
  // Kept posts are shared (frozen): each gets its permalink on a copy.
  const items: Entity[] = found.map((post) => ({ ...post, url: links.postUrl(post) }));
  const site = ctx.site.url;
  const channel = [
    `<title>${cdata(title)}</title>`,
    `<description>${cdata(settings.get('description') ?? '')}</description>`,
    `<link>${xmlText(site)}</link>`,
    `<image><url>${xmlText(site)}favicon.png</url><title>${xmlText(title)}</title><link>${xmlText(site)}</link></image>`,
    '<generator>Ghost 5.130</generator>',
    `<lastBuildDate>${new Date().toUTCString()}</lastBuildDate>`,
    `<atom:link href="${xmlAttr(site + path)}" rel="self" type="application/rss+xml"/>`,
    '<ttl>60</ttl>',
    // A post's entry depends only on the post and its permalink: made once per content version.
    ...items.map((post) => keep(`rss-item\n${String(post.id)}\n${String(post.url)}`, () => item(post))),
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?><rss xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/" ' +
    `xmlns:atom="http://www.w3.org/2005/Atom" version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>${channel.join('')}</channel></rss>`
  );
}
