import type { Ctx } from '../ctx.js';
import { browse, type Entity } from './data.js';

interface SitemapAnswer {
  type: string;
  body: string;
  cacheControl: string;
}

const HOUR = 'public, max-age=3600';
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const iso = (value: unknown) => (value ? new Date(String(value)).toISOString() : new Date(0).toISOString());

const KINDS = ['pages', 'posts', 'authors', 'tags'] as const;
type Kind = (typeof KINDS)[number];

async function entries(ctx: Ctx, kind: Kind): Promise<Entity[]> {
  const order = 'updated_at desc';
  const { items } = await browse(ctx, kind, { limit: 'all', ...(order ? { order } : {}), ...(kind === 'tags' ? { filter: 'visibility:public' } : {}) });
  return items;
}

function urlset(site: string, urls: string[]): string {
  const style = `<?xml-stylesheet type="text/xsl" href="${site.replace(/^https?:/, '')}sitemap.xsl"?>`;
  return `<?xml version="1.0" encoding="UTF-8"?>${style}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">${urls.join('')}</urlset>`;
}

function urlOf(entity: Entity): string {
  const image = entity.feature_image ?? entity.profile_image;
  const imagePart = image
    ? `<image:image><image:loc>${escapeXml(String(image))}</image:loc><image:caption>${escapeXml(String(image).split('/').pop() ?? '')}</image:caption></image:image>`
    : '';
  return `<url><loc>${escapeXml(String(entity.url))}</loc><lastmod>${iso(entity.updated_at ?? entity.published_at)}</lastmod>${imagePart}</url>`;
}

/** `/sitemap.xml` (the index), `/sitemap-{posts,pages,tags,authors}.xml` and `/sitemap.xsl`; null for other paths. */
export async function sitemapFile(ctx: Ctx, relativeUrl: string): Promise<SitemapAnswer | null> {
  const site = ctx.site.url;
  if (relativeUrl === '/sitemap.xsl') return { type: 'text/xsl', body: SITEMAP_XSL, cacheControl: 'public, max-age=86400' };
  if (relativeUrl === '/sitemap.xml') {
    const parts = await Promise.all(
      KINDS.map(async (kind) => {
        const list = await entries(ctx, kind);
        const last =
          list
            .map((entity) => iso(entity.updated_at ?? entity.published_at))
            .sort()
            .pop() ?? new Date(0).toISOString();
        return `<sitemap><loc>${escapeXml(`${site}sitemap-${kind}.xml`)}</loc><lastmod>${last}</lastmod></sitemap>`;
      }),
    );
    const style = `<?xml-stylesheet type="text/xsl" href="${site.replace(/^https?:/, '')}sitemap.xsl"?>`;
    return {
      type: 'text/xml; charset=utf-8',
      body: `<?xml version="1.0" encoding="UTF-8"?>${style}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${parts.join('')}</sitemapindex>`,
      cacheControl: HOUR,
    };
  }
  const match = /^\/sitemap-(posts|pages|tags|authors)\.xml$/.exec(relativeUrl);
  if (!match) return null;
  const kind = match[1] as Kind;
  const urls = (await entries(ctx, kind)).map((entity) =>
    urlOf(kind === 'tags' || kind === 'authors' ? { ...entity, feature_image: null, profile_image: null } : entity),
  );
  if (kind === 'pages') urls.push(`<url><loc>${escapeXml(site)}</loc><lastmod>${new Date().toISOString()}</lastmod></url>`);
  return { type: 'text/xml; charset=utf-8', body: urlset(site, urls), cacheControl: HOUR };
}

/** A stylesheet that shows a sitemap as a table in a browser (our own; Ghost ships one of its own). */
const SITEMAP_XSL = `<?xml version="1.0" encoding="UTF-8"?>
<xsl:stylesheet version="2.0" xmlns:html="http://www.w3.org/TR/REC-html40" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:sitemap="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html" version="1.0" encoding="UTF-8" indent="yes"/>
<xsl:template match="/">
<html xmlns="http://www.w3.org/1999/xhtml">
<head><title>XML Sitemap</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:4px 12px;text-align:left;border-bottom:1px solid #ddd}</style></head>
<body>
<h1>XML Sitemap</h1>
<xsl:choose>
<xsl:when test="sitemap:sitemapindex">
<table><tr><th>Sitemap</th><th>Last modified</th></tr>
<xsl:for-each select="sitemap:sitemapindex/sitemap:sitemap"><tr><td><a href="{sitemap:loc}"><xsl:value-of select="sitemap:loc"/></a></td><td><xsl:value-of select="sitemap:lastmod"/></td></tr></xsl:for-each>
</table>
</xsl:when>
<xsl:otherwise>
<table><tr><th>URL</th><th>Images</th><th>Last modified</th></tr>
<xsl:for-each select="sitemap:urlset/sitemap:url"><tr><td><a href="{sitemap:loc}"><xsl:value-of select="sitemap:loc"/></a></td><td><xsl:value-of select="count(image:image)"/></td><td><xsl:value-of select="sitemap:lastmod"/></td></tr></xsl:for-each>
</table>
</xsl:otherwise>
</xsl:choose>
</body>
</html>
</xsl:template>
</xsl:stylesheet>
`;
