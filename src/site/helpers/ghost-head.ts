import { SafeString, envOf, escape, type Options, type RenderEnv } from './env.js';
import { metaDescription, metaTitle } from './meta.js';
import { paginatedUrl } from './page-url.js';
import { truncate } from './excerpt.js';
import { MEMBERS_STYLES } from './members-styles.js';
import { findKey } from './social-url.js';
import { generateCustomFontCss } from '@tryghost/custom-fonts';
import { customFonts } from './custom-fonts.js';
import { announcementBarScript } from './announcement-bar.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SOCIAL = ['facebook', 'twitter', 'threads', 'bluesky', 'mastodon', 'tiktok', 'youtube', 'instagram', 'linkedin'] as const;
const PROFILE: Record<(typeof SOCIAL)[number], (name: string) => string> = {
  facebook: (n) => `https://www.facebook.com/${n.replace(/^\//, '')}`,
  twitter: (n) => `https://x.com/${n.replace(/^@/, '')}`,
  threads: (n) => `https://www.threads.net/@${n.replace(/^@/, '')}`,
  bluesky: (n) => `https://bsky.app/profile/${n}`,
  mastodon: (n) => `https://${n}`,
  tiktok: (n) => `https://www.tiktok.com/${n.startsWith('@') ? n : `@${n}`}`,
  youtube: (n) => `https://www.youtube.com/${n}`,
  instagram: (n) => `https://www.instagram.com/${n}`,
  linkedin: (n) => `https://www.linkedin.com/${['in/', 'company/', 'school/', 'pub/'].some((p) => n.startsWith(p)) ? n : `in/${n}`}`,
};

const absolute = (siteUrl: string, url: unknown) => {
  if (!url) return null;
  const text = String(url);
  return text.startsWith('/') && !text.startsWith('//') ? `${siteUrl.replace(/\/$/, '')}${text}` : text;
};

/** Ghost's `getContextObject`: the post, page, tag or author the page is about, else the site's images and accounts. */
function contextObject(data: Obj, context: readonly string[], site: Obj): Obj {
  if ((context.includes('page') || context.includes('amp') || context.includes('post')) && data.post) return data.post;
  if (context.includes('page') && data.page) return data.page;
  if (context.includes('tag') && data.tag) return data.tag;
  if (context.includes('author') && data.author) return data.author;
  return { cover_image: site.cover_image, twitter: site.twitter, facebook: site.facebook };
}

function sameAs(author: Obj | undefined): string[] {
  if (!author || Object.keys(author).length === 0) return [];
  const out: string[] = [];
  if (author.website) out.push(escape(author.website));
  for (const platform of SOCIAL) if (author[platform]) out.push(escape(PROFILE[platform](author[platform])));
  return out;
}

const trim = (object: Obj) => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== null && value !== undefined));
const imageObject = (url: string | null) => (url ? { '@type': 'ImageObject', url } : null);

/** Ghost's `meta/get-meta.js` without image dimensions (Ghost fetches them over the network; Quire does not). */
function metaData(data: Obj, env: RenderEnv) {
  const { context, site, siteUrl } = env;
  const object = contextObject(data, context, site);
  const url = `${siteUrl.replace(/\/$/, '')}${String(data.relativeUrl ?? '/').replace(/\/amp\/$/i, '/')}`;
  let canonical = url;
  if ((context.includes('post') || context.includes('page')) && data.post?.canonical_url) canonical = data.post.canonical_url;
  else if (context.includes('tag') && data.tag?.canonical_url) canonical = data.tag.canonical_url;
  const isEntry = context.includes('post') || context.includes('page') || context.includes('amp');
  const coverImage = context.includes('home') || context.includes('author') ? absolute(siteUrl, object.cover_image) : absolute(siteUrl, object.feature_image);
  let ogImage: string | null = null;
  let twitterImage: string | null = null;
  if (context.includes('home')) {
    ogImage = absolute(siteUrl, site.og_image || site.cover_image);
    twitterImage = absolute(siteUrl, site.twitter_image || site.cover_image);
  } else if (isEntry) {
    ogImage = absolute(siteUrl, object.og_image || object.feature_image || site.og_image || site.cover_image);
    twitterImage = absolute(siteUrl, object.twitter_image || object.feature_image || site.twitter_image || site.cover_image);
  } else if (context.includes('author') && object.cover_image) {
    ogImage = twitterImage = absolute(siteUrl, object.cover_image);
  } else if (context.includes('tag')) {
    ogImage = absolute(siteUrl, object.og_image || object.feature_image || site.cover_image);
    twitterImage = absolute(siteUrl, object.twitter_image || object.feature_image || site.cover_image);
  }
  const tags = (data.post?.tags as Obj[] | undefined) ?? [];
  const keywords = tags.length > 0 ? tags.filter((tag) => tag.visibility === 'public').map((tag) => String(tag.name)) : null;
  const first = context[0];
  const dated = first === 'post' || first === 'page' ? object : first === 'tag' ? data.tag : first === 'author' ? data.author : null;
  const post = data.post as Obj | undefined;
  const authorUrl = data.author ? data.author.url : object.primary_author ? object.primary_author.url : null;
  return {
    url,
    canonical,
    title: metaTitle(data, context, site),
    description: metaDescription(data, context, site),
    excerpt: post ? post.excerpt || post.custom_excerpt || post.meta_description || (post.excerpt ? truncate(post.excerpt, { words: 50 }) : '') : undefined,
    coverImage,
    ogImage,
    twitterImage,
    ogTitle: metaTitle(data, context, site, 'og'),
    ogDescription: metaDescription(data, context, site, 'og'),
    twitterTitle: metaTitle(data, context, site, 'twitter'),
    twitterDescription: metaDescription(data, context, site, 'twitter'),
    authorFacebook: findKey('facebook', object.primary_author, null),
    creatorTwitter: findKey('twitter', object.primary_author, null),
    authorImage: isEntry && object.primary_author?.profile_image ? absolute(siteUrl, object.primary_author.profile_image) : null,
    authorUrl,
    authorName: post?.primary_author?.name as string | undefined,
    keywords,
    publishedDate: dated?.published_at ? new Date(dated.published_at).toISOString() : null,
    modifiedDate: object.updated_at ? new Date(object.updated_at).toISOString() : null,
    ogType: first === 'author' ? 'profile' : first === 'post' || first === 'amp' ? 'article' : 'website',
    logo: site.logo
      ? { '@type': 'ImageObject', url: absolute(siteUrl, site.logo) }
      : { '@type': 'ImageObject', url: `${siteUrl}favicon.ico`, width: 48, height: 48 },
  };
}

type Meta = ReturnType<typeof metaData>;

function structuredData(meta: Meta, site: Obj): [string, unknown][] {
  return [
    ['og:site_name', site.title],
    ['og:type', meta.ogType],
    ['og:title', meta.ogTitle],
    ['og:description', meta.ogDescription],
    ['og:url', meta.canonical],
    ['og:image', meta.ogImage || meta.coverImage],
    ['article:published_time', meta.publishedDate],
    ['article:modified_time', meta.modifiedDate],
    ['article:tag', meta.keywords],
    ['article:publisher', site.facebook ? PROFILE.facebook(site.facebook) : undefined],
    ['article:author', meta.authorFacebook ? PROFILE.facebook(meta.authorFacebook) : undefined],
    ['twitter:card', meta.twitterImage || meta.coverImage ? 'summary_large_image' : 'summary'],
    ['twitter:title', meta.twitterTitle],
    ['twitter:description', meta.twitterDescription],
    ['twitter:url', meta.canonical],
    ['twitter:image', meta.twitterImage || meta.coverImage],
    ['twitter:label1', meta.authorName ? 'Written by' : undefined],
    ['twitter:data1', meta.authorName],
    ['twitter:label2', meta.keywords ? 'Filed under' : undefined],
    ['twitter:data2', meta.keywords ? meta.keywords.join(', ') : undefined],
    ['twitter:site', site.twitter || undefined],
    ['twitter:creator', meta.creatorTwitter || undefined],
  ];
}

function schema(meta: Meta, data: Obj, env: RenderEnv): Obj | null {
  const { context, site, siteUrl } = env;
  const publisher = { '@type': 'Organization', name: escape(String(site.title ?? '')), url: siteUrl, logo: meta.logo };
  const description = meta.description ? escape(meta.description) : null;
  if (context.includes('post') || context.includes('page') || context.includes('amp')) {
    const entry = (data.page ?? data.post) as Obj;
    const author = (entry.primary_author ?? {}) as Obj;
    const contributors = Array.isArray(entry.authors) && entry.authors.length > 1 ? (entry.authors as Obj[]).slice(1) : null;
    return trim({
      '@context': 'https://schema.org',
      '@type': 'Article',
      publisher,
      author: trim({
        '@type': 'Person',
        name: escape(String(author.name ?? '')),
        image: imageObject(meta.authorImage),
        url: meta.authorUrl,
        sameAs: sameAs(author),
        description: null,
      }),
      contributor: contributors?.map((c) =>
        trim({
          '@type': 'Person',
          name: escape(String(c.name)),
          image: c.profile_image ? imageObject(c.profile_image) : null,
          url: c.url || null,
          sameAs: sameAs(c),
          description: c.meta_description ? escape(c.meta_description) : null,
        }),
      ),
      headline: escape(meta.title),
      url: meta.url,
      datePublished: meta.publishedDate,
      dateModified: meta.modifiedDate,
      image: imageObject(meta.coverImage),
      keywords: meta.keywords && meta.keywords.length > 0 ? meta.keywords.join(', ') : null,
      description: meta.excerpt ? escape(meta.excerpt) : null,
      mainEntityOfPage: meta.url,
    });
  }
  if (context.includes('home'))
    return trim({
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      publisher,
      url: meta.url,
      name: site.title,
      image: imageObject(meta.coverImage),
      mainEntityOfPage: meta.url,
      description,
    });
  if (context.includes('tag'))
    return trim({
      '@context': 'https://schema.org',
      '@type': 'Series',
      publisher,
      url: meta.url,
      image: imageObject(meta.coverImage),
      name: data.tag.name,
      mainEntityOfPage: meta.url,
      description,
    });
  if (context.includes('author'))
    return trim({
      '@context': 'https://schema.org',
      '@type': 'Person',
      sameAs: sameAs(data.author),
      name: escape(String(data.author.name)),
      url: meta.authorUrl,
      image: imageObject(meta.authorImage) || imageObject(meta.coverImage),
      mainEntityOfPage: meta.authorUrl,
      description,
    });
  return null;
}

const metaTag = (property: string, content: string) => `<meta ${property.startsWith('twitter') ? 'name' : 'property'}="${property}" content="${content}">`;

/**
 * `{{ghost_head}}` as Ghost prints it: description, canonical, referrer, paging links, Open Graph and Twitter
 * data and JSON-LD (not on paged lists), generator, RSS, the Portal and search scripts (served by this site
 * under `/public/`), the members styles, card assets, attribution, accent colour and code injection.
 */
export function ghost_head(this: Obj, options: Options) {
  const env = envOf(options);
  const root = options.data.root as Obj;
  if (Number(root.statusCode) >= 500) return undefined;
  const { context, site, siteUrl, settings } = env;
  const data: Obj = { ...root, ...(root.page && !root.post ? { post: root.page } : {}) };
  const basePath = siteUrl.replace(/^https?:\/\/[^/]+/, '');
  const asset = (file: string) => `${basePath}${file}?v=${env.theme.assetHash}`;
  const head: string[] = [];
  const meta = metaData(data, env);
  // Error pages have no context: Ghost prints none of the page's metadata there.
  if (!('statusCode' in root)) {
    if (meta.description) head.push(`<meta name="description" content="${escape(meta.description)}">`);
    if (site.icon)
      head.push(`<link rel="icon" href="${escape(String(site.icon))}" type="image/${String(site.icon).split('.').pop() === 'ico' ? 'x-icon' : 'png'}">`);
    head.push(`<link rel="canonical" href="${escape(meta.canonical)}">`);
    // A draft preview is never to be indexed, and leaks no referrer (Ghost's preview context).
    if (context.includes('preview')) head.push('<meta name="robots" content="noindex,nofollow">', '<meta name="referrer" content="same-origin">');
    else head.push('<meta name="referrer" content="no-referrer-when-downgrade">');
    const prev = root.pagination ? paginatedUrl('prev', root) : null;
    const next = root.pagination ? paginatedUrl('next', root) : null;
    if (prev) head.push(`<link rel="prev" href="${escape(siteUrl.replace(/\/$/, '') + prev)}">`);
    if (next) head.push(`<link rel="next" href="${escape(siteUrl.replace(/\/$/, '') + next)}">`);
    if (!context.includes('paged')) {
      head.push('');
      for (const [property, content] of structuredData(meta, site)) {
        if (property === 'article:tag') {
          if (content === null || content === undefined) continue;
          for (const keyword of meta.keywords ?? []) if (keyword !== '') head.push(metaTag(property, escape(escape(keyword))));
          head.push('');
        } else if (content !== null && content !== undefined) head.push(metaTag(property, escape(String(content))));
      }
      head.push('');
      const ld = schema(meta, data, env);
      if (ld) head.push(`<script type="application/ld+json">\n${JSON.stringify(ld, null, '    ')}\n    </script>\n`);
    }
  }
  head.push('<meta name="generator" content="Ghost 5.130">');
  head.push(`<link rel="alternate" type="application/rss+xml" title="${escape(String(site.title ?? ''))}" href="${escape(`${siteUrl}rss/`)}">`);
  const membersEnabled = settings.get('members_signup_access') !== 'none';
  const locale = escape(String(site.locale ?? 'en'));
  const key = escape(String(root._contentKey ?? ''));
  let members = '';
  // `@site` as the templates see it: the Design screen's unsaved accent colour in its preview (design-preview.ts),
  // which Portal is given only then (the saved one it reads itself).
  const shown = options.data.site as Obj;
  const accent = '_preview' in shown && shown.accent_color ? ` data-accent-color="${escape(String(shown.accent_color))}"` : '';
  if (membersEnabled) {
    members += `<script defer src="${siteUrl}public/portal/portal.min.js" data-i18n="true" data-ghost="${siteUrl}" data-key="${key}" data-api="${siteUrl}ghost/api/content/" data-locale="${locale}"${accent} crossorigin="anonymous"></script>`;
    members += `<style id="gh-members-styles">${MEMBERS_STYLES}</style>`;
  }
  head.push(members);
  head.push(
    `<script defer src="${siteUrl}public/sodo-search/sodo-search.min.js" data-key="${key}" data-styles="${siteUrl}public/sodo-search/main.css" data-sodo-search="${siteUrl}" data-locale="${locale}" crossorigin="anonymous"></script>`,
  );
  head.push(announcementBarScript(siteUrl, settings, shown._preview as string | undefined));
  head.push(`<link href="${siteUrl}webmentions/receive/" rel="webmention">`);
  if (env.theme.config.card_assets) {
    head.push(`<script defer src="${asset('public/cards.min.js')}"></script>`);
    head.push(`<link rel="stylesheet" type="text/css" href="${asset('public/cards.min.css')}">`);
  }
  if (membersEnabled && settings.get('members_track_sources') !== 'false')
    head.push(`<script defer src="${asset('public/member-attribution.min.js')}"></script>`);
  if (shown.accent_color) {
    const style = `<style>:root {--ghost-accent-color: ${escape(String(shown.accent_color))};}</style>`;
    let last = -1;
    head.forEach((line, index) => {
      if (/<\/(style|script)>/.test(line)) last = index;
    });
    if (last !== -1) head[last] += style;
    else head.push(style);
  }
  for (const code of [settings.get('codeinjection_head'), data.post?.codeinjection_head, data.tag?.codeinjection_head]) if (code) head.push(String(code));
  const fonts = customFonts(options);
  if (fonts) head.push(generateCustomFontCss(fonts));
  return new SafeString(head.join('\n    ').trim());
}

/** `{{ghost_foot}}`: the site's footer code injection, then the post's or tag's. */
export function ghost_foot(this: Obj, options: Options) {
  const env = envOf(options);
  const root = options.data.root as Obj;
  const entity = (root.post ?? root.page) as Obj | undefined;
  const parts = [env.settings.get('codeinjection_foot'), entity?.codeinjection_foot, (root.tag as Obj | undefined)?.codeinjection_foot].filter(Boolean);
  return new SafeString(parts.join('\n'));
}
