import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentTypeOf } from '../storage/content-type.js';
import type { Ctx } from '../ctx.js';
import type { CompiledTheme } from './engine.js';
import { sitemapFile } from './sitemap.js';
import { FAVICON_ICO } from './favicon.js';
import { PUBLIC_ASSETS } from './public-assets.js';

interface FileRequest {
  ctx: Ctx;
  relativeUrl: string;
  theme: () => Promise<CompiledTheme>;
}

const YEAR = 'public, max-age=31536000';

/**
 * Files the site answers before pages: the theme's `/assets/*` (a year of caching: URLs carry `?v=`),
 * `/robots.txt`, `/favicon.ico`, the sitemaps and their stylesheet. Returns false when `relativeUrl` is none of them.
 */
export async function serveSiteFile(request: FastifyRequest, reply: FastifyReply, { ctx, relativeUrl, theme }: FileRequest): Promise<boolean> {
  if (relativeUrl.startsWith('/assets/')) {
    const dir = path.join((await theme()).dir, 'assets');
    let file: string;
    try {
      file = path.resolve(dir, `.${decodeURIComponent(relativeUrl.slice('/assets'.length))}`);
    } catch {
      return false;
    }
    // Never outside the theme's assets folder, whatever the encoded path says.
    if (!file.startsWith(`${dir}${path.sep}`)) return false;
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return false;
    reply
      .header('Cache-Control', YEAR)
      .header('Last-Modified', info.mtime.toUTCString())
      .header('ETag', `W/"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`)
      .type(contentTypeOf(file));
    if (request.method === 'HEAD') return (void reply.header('Content-Length', info.size).send(), true);
    await reply.send(createReadStream(file));
    return true;
  }
  const own = PUBLIC_ASSETS.get(relativeUrl);
  if (own) {
    await reply.header('Cache-Control', YEAR).type(own.type).send(own.body);
    return true;
  }
  if (relativeUrl === '/robots.txt') {
    const site = ctx.site.url;
    const body = `User-agent: *\nSitemap: ${site}sitemap.xml\nDisallow: /ghost/\nDisallow: /email/\nDisallow: /members/api/comments/counts/\nDisallow: /r/\nDisallow: /webmentions/receive/\n`;
    await reply.header('Cache-Control', 'public, max-age=3600').type('text/plain').send(body);
    return true;
  }
  if (relativeUrl === '/favicon.ico') {
    await reply.header('Cache-Control', 'public, max-age=86400').type('image/x-icon').send(FAVICON_ICO);
    return true;
  }
  const sitemap = await sitemapFile(ctx, relativeUrl);
  if (sitemap) {
    await reply.header('Cache-Control', sitemap.cacheControl).type(sitemap.type).send(sitemap.body);
    return true;
  }
  return false;
}
