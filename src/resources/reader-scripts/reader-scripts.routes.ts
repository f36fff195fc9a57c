import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { packageDir } from './reader-scripts.urls.js';

/**
 * The reader apps Ghost loads from a CDN, served by the site itself from their npm packages' `umd/` builds:
 * Portal (sign-up, sign-in, account) at `<site>/public/portal/portal.min.js` and Search at
 * `<site>/public/sodo-search/sodo-search.min.js` with its `main.css`, and the announcement bar at
 * `<site>/public/announcement-bar/announcement-bar.min.js`. `{{ghost_head}}` prints these URLs
 * (`readerScripts()` in reader-scripts.urls.ts) with Ghost's `data-*` attributes. Each file is read once, kept with its gzip form,
 * and sent with a strong ETag.
 */
interface Asset {
  pkg: string;
  file: string;
  type: string;
}

const ASSETS: Record<string, Asset> = {
  'portal/portal.min.js': { pkg: '@tryghost/portal', file: 'umd/portal.min.js', type: 'application/javascript; charset=utf-8' },
  'sodo-search/sodo-search.min.js': { pkg: '@tryghost/sodo-search', file: 'umd/sodo-search.min.js', type: 'application/javascript; charset=utf-8' },
  'sodo-search/main.css': { pkg: '@tryghost/sodo-search', file: 'umd/main.css', type: 'text/css; charset=utf-8' },
  'announcement-bar/announcement-bar.min.js': {
    pkg: '@tryghost/announcement-bar',
    file: 'umd/announcement-bar.min.js',
    type: 'application/javascript; charset=utf-8',
  },
};

interface Loaded {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

const loaded = new Map<string, Promise<Loaded>>();

function load(asset: Asset): Promise<Loaded> {
  const key = `${asset.pkg}/${asset.file}`;
  let entry = loaded.get(key);
  if (!entry) {
    entry = (async () => {
      const dir = packageDir(asset.pkg);
      const body = await readFile(path.join(dir, asset.file));
      const gzipped = await promisify(gzip)(body);
      return { body, gzipped, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
    })();
    // A failed read is not remembered: the next request tries again.
    entry.catch(() => loaded.delete(key));
    loaded.set(key, entry);
  }
  return entry;
}

export function readerScriptsRoutes(app: FastifyInstance, siteUrl: string) {
  const prefix = `${new URL(siteUrl).pathname}public/`;
  for (const [route, asset] of Object.entries(ASSETS)) {
    app.get(`${prefix}${route}`, async (request: FastifyRequest, reply: FastifyReply) => {
      const { body, gzipped, etag } = await load(asset);
      reply
        .header('Content-Type', asset.type)
        .header('Cache-Control', 'public, max-age=86400')
        .header('Access-Control-Allow-Origin', '*')
        .header('ETag', etag)
        .header('Vary', 'Accept-Encoding');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('Content-Encoding', 'gzip').send(gzipped);
      return reply.send(body);
    });
  }
}
