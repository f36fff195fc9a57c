import { SafeString, envOf, escape, type Options } from './env.js';
import { metaDescription, metaTitle } from './meta.js';
import { paginatedUrl } from './small.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const attr = (value: unknown) => escape(String(value ?? ''));

/** The canonical URL of the page: the entity's own URL (or its canonical_url), else the list's. */
function canonicalOf(root: Obj, siteUrl: string): string {
  const origin = siteUrl.replace(/\/$/, '');
  const entity = (root.post ?? root.page) as Obj | undefined;
  if (entity) return entity.canonical_url || entity.url;
  return `${origin}${String(root.relativeUrl ?? '/')}`;
}

/**
 * `{{ghost_head}}` as Ghost prints it: description, canonical, referrer, Open Graph and Twitter cards,
 * JSON-LD, generator, RSS, the Portal and search scripts (served by this site under `/public/`), the
 * members styles, the accent colour and code injection (site, then the post's or tag's).
 */
export function ghost_head(this: Obj, options: Options) {
  const env = envOf(options);
  const root = options.data.root as Obj;
  const site = env.site as Obj;
  const context = env.context;
  const data = { ...root, ...(root.page && !root.post ? { post: root.page } : {}) };
  const siteUrl = env.siteUrl;
  const title = metaTitle(data, root, context, String(site.title ?? ''));
  const description = metaDescription(data, root, context);
  const canonical = canonicalOf(root, siteUrl);
  const out: string[] = [];
  if (description) out.push(`<meta name="description" content="${attr(description)}">`);
  out.push(`<link rel="canonical" href="${attr(canonical)}">`);
  out.push('<meta name="referrer" content="no-referrer-when-downgrade">');
  const prev = root.pagination ? paginatedUrl('prev', root) : null;
  const next = root.pagination ? paginatedUrl('next', root) : null;
  if (prev) out.push(`<link rel="prev" href="${attr(siteUrl.replace(/\/$/, '') + prev)}">`);
  if (next) out.push(`<link rel="next" href="${attr(siteUrl.replace(/\/$/, '') + next)}">`);
  out.push('    ');
  const entity = (data.post ?? undefined) as Obj | undefined;
  const isArticle = entity && (context.includes('post') || context.includes('page'));
  const image = entity?.og_image || entity?.feature_image || (context.includes('home') ? site.og_image || site.cover_image : null);
  const ogTitle = (entity?.og_title as string) || (context.includes('home') ? site.og_title : null) || title;
  const ogDescription = (entity?.og_description as string) || (context.includes('home') ? site.og_description : null) || description;
  out.push(`<meta property="og:site_name" content="${attr(site.title)}">`);
  out.push(`<meta property="og:type" content="${isArticle ? 'article' : context.includes('author') ? 'profile' : 'website'}">`);
  out.push(`<meta property="og:title" content="${attr(ogTitle)}">`);
  if (ogDescription) out.push(`<meta property="og:description" content="${attr(ogDescription)}">`);
  out.push(`<meta property="og:url" content="${attr(canonical)}">`);
  if (image) out.push(`<meta property="og:image" content="${attr(image)}">`);
  if (isArticle && entity.published_at) out.push(`<meta property="article:published_time" content="${attr(new Date(entity.published_at).toISOString())}">`);
  if (isArticle && entity.updated_at) out.push(`<meta property="article:modified_time" content="${attr(new Date(entity.updated_at).toISOString())}">`);
  for (const tag of (isArticle ? (entity.tags as Obj[] | undefined) : undefined) ?? [])
    if (tag.visibility === 'public') out.push(`<meta property="article:tag" content="${attr(tag.name)}">`);
  if (site.facebook) out.push(`<meta property="article:publisher" content="https://www.facebook.com/${attr(site.facebook)}">`);
  out.push('<meta name="twitter:card" content="summary_large_image">');
  out.push(
    `<meta name="twitter:title" content="${attr((entity?.twitter_title as string) || (context.includes('home') ? site.twitter_title : null) || title)}">`,
  );
  const twitterDescription = (entity?.twitter_description as string) || (context.includes('home') ? site.twitter_description : null) || description;
  if (twitterDescription) out.push(`<meta name="twitter:description" content="${attr(twitterDescription)}">`);
  out.push(`<meta name="twitter:url" content="${attr(canonical)}">`);
  const twitterImage = entity?.twitter_image || image;
  if (twitterImage) out.push(`<meta name="twitter:image" content="${attr(twitterImage)}">`);
  if (site.twitter) out.push(`<meta name="twitter:site" content="${attr(site.twitter)}">`);
  out.push('    ');
  out.push(
    `<script type="application/ld+json">\n${JSON.stringify(jsonLd(data, site, siteUrl, canonical, title, description, image, isArticle), null, 4)}\n    </script>\n`,
  );
  out.push('<meta name="generator" content="Ghost 5.130">');
  out.push(`<link rel="alternate" type="application/rss+xml" title="${attr(site.title)}" href="${attr(siteUrl)}rss/">`);
  const members = String(env.settings.get('members_signup_access') ?? 'all') !== 'none';
  const locale = attr(site.locale ?? 'en');
  if (members)
    out.push(
      `<script defer src="${siteUrl}public/portal/portal.min.js" data-i18n="true" data-ghost="${siteUrl}" data-key="${attr(root._contentKey)}" data-api="${siteUrl}ghost/api/content/" data-locale="${locale}" crossorigin="anonymous"></script><style id="gh-members-styles">${MEMBERS_STYLES}</style>`,
    );
  out.push(
    `<script defer src="${siteUrl}public/sodo-search/sodo-search.min.js" data-key="${attr(root._contentKey)}" data-styles="${siteUrl}public/sodo-search/main.css" data-sodo-search="${siteUrl}" data-locale="${locale}" crossorigin="anonymous"></script>`,
  );
  out.push('    ');
  out.push(`<link href="${siteUrl}webmentions/receive/" rel="webmention">`);
  out.push(`<script defer src="${siteUrl.replace(/^https?:\/\/[^/]+/, '')}public/cards.min.js?v=${env.theme.assetHash}"></script>`);
  out.push(`<link rel="stylesheet" type="text/css" href="${siteUrl.replace(/^https?:\/\/[^/]+/, '')}public/cards.min.css?v=${env.theme.assetHash}">`);
  if (site.accent_color) out.push(`<style>:root {--ghost-accent-color: ${attr(site.accent_color)};}</style>`);
  const injection = [env.settings.get('codeinjection_head'), entity?.codeinjection_head, (root.tag as Obj | undefined)?.codeinjection_head].filter(Boolean);
  for (const code of injection) out.push(String(code));
  return new SafeString(out.join('\n    '));
}

function jsonLd(data: Obj, site: Obj, siteUrl: string, canonical: string, title: string, description: string | null, image: unknown, isArticle: unknown) {
  const publisher = {
    '@type': 'Organization',
    name: site.title,
    url: siteUrl,
    logo: site.logo ? { '@type': 'ImageObject', url: site.logo } : { '@type': 'ImageObject', url: `${siteUrl}favicon.ico`, width: 48, height: 48 },
  };
  if (isArticle) {
    const author = (data.post.primary_author ?? {}) as Obj;
    return {
      '@context': 'https://schema.org',
      '@type': 'Article',
      publisher,
      author: { '@type': 'Person', name: author.name, url: author.url, sameAs: [] },
      headline: title,
      url: canonical,
      datePublished: data.post.published_at ? new Date(data.post.published_at).toISOString() : undefined,
      dateModified: data.post.updated_at ? new Date(data.post.updated_at).toISOString() : undefined,
      ...(image ? { image: { '@type': 'ImageObject', url: image } } : {}),
      description: description ?? undefined,
      mainEntityOfPage: canonical,
    };
  }
  return {
    '@context': 'https://schema.org',
    '@type': data.tag ? 'Series' : data.author ? 'Person' : 'WebSite',
    publisher,
    url: canonical,
    name: data.tag ? data.tag.name : data.author ? data.author.name : site.title,
    ...(image ? { image: { '@type': 'ImageObject', url: image } } : {}),
    mainEntityOfPage: canonical,
    description: description ?? undefined,
  };
}

/** The members call-to-action styles Ghost prints with Portal (our own rules for the same class names). */
const MEMBERS_STYLES =
  '.gh-post-upgrade-cta-content,.gh-post-upgrade-cta{display:flex;flex-direction:column;align-items:center;text-align:center;width:100%;color:#fff;font-size:16px}' +
  '.gh-post-upgrade-cta-content{border-radius:8px;padding:40px 4vw}.gh-post-upgrade-cta h2{color:#fff;font-size:28px;margin:0;padding:0}' +
  '.gh-post-upgrade-cta p{margin:20px 0 0;padding:0}.gh-post-upgrade-cta a{color:#fff;cursor:pointer;font-weight:500;text-decoration:underline}' +
  '.gh-post-upgrade-cta a.gh-btn{display:block;background:#fff;text-decoration:none;margin:28px 0 0;padding:8px 18px;border-radius:4px;font-size:16px;font-weight:600}';

/** `{{ghost_foot}}`: the site's footer code injection, then the post's or tag's. */
export function ghost_foot(this: Obj, options: Options) {
  const env = envOf(options);
  const root = options.data.root as Obj;
  const entity = (root.post ?? root.page) as Obj | undefined;
  const parts = [env.settings.get('codeinjection_foot'), entity?.codeinjection_foot, (root.tag as Obj | undefined)?.codeinjection_foot].filter(Boolean);
  return new SafeString(parts.join('\n'));
}
