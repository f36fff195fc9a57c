import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import rangeParser from 'range-parser';
import { requestCtx, type CtxBase } from '../../ctx.js';
import { BadKeyError, checkKey, MissingFileError, type Storage } from '../../storage/storage.js';
import { contentTypeOf } from '../../storage/content-type.js';
import { canMakeSize, ensureSize, parseSizedPath } from '../images/image-sizes.js';
import { activeThemeImageSizes } from '../themes/theme-image-sizes.js';

const KINDS = new Set(['images', 'media', 'files']);
/** Ghost serves uploads with a year's caching: a changed file gets a new name, never new bytes under an old one. */
const CACHE_CONTROL = 'public, max-age=31536000';

/**
 * Uploads at Ghost's public paths (`<site path>content/images|media|files/…`) from whichever storage holds them,
 * with content types, entity tags, conditional and range requests. Responsive image sizes are made on first
 * request and stored. Objects that an S3 bucket serves publicly are still reachable here.
 */
export function publicFilesRoutes(app: FastifyInstance, base: CtxBase) {
  const sitePath = new URL(base.site.url).pathname;
  app.route<{ Params: { kind: string; '*': string } }>({
    method: ['GET', 'HEAD'],
    url: `${sitePath}content/:kind/*`,
    handler: async (request, reply) => {
      const { kind, '*': rest } = request.params;
      if (!KINDS.has(kind) || !validKey(`${kind}/${rest}`)) return notFound(reply);
      reply.header('Access-Control-Allow-Origin', '*');
      const sized = kind === 'images' ? parseSizedPath(rest) : null;
      if (sized) {
        const original = `${sitePath}content/${sized.original}`;
        // Ghost's own sizes first; the active theme's `image_sizes` only for a dimension Ghost does not list.
        const known = canMakeSize(sized) || canMakeSize(sized, await activeThemeImageSizes(requestCtx(base, null)));
        if (!known) return reply.redirect(sized.format ? new URL(original, base.site.url).href : original);
        try {
          await ensureSize(base.storage, sized);
        } catch (err) {
          if (err instanceof MissingFileError) return notFound(reply);
          // As Ghost: an image it cannot process is answered with the original.
          request.log.warn({ err, key: sized.key }, 'image size not made; redirecting to the original');
          return reply.redirect(original);
        }
        return sendFile(request, reply, base.storage, sized.key, sized.format ? `image/${sized.format === 'jpg' ? 'jpeg' : sized.format}` : null);
      }
      return sendFile(request, reply, base.storage, `${kind}/${rest}`, null);
    },
  });
}

function validKey(key: string): boolean {
  try {
    checkKey(key);
    return true;
  } catch (err) {
    if (err instanceof BadKeyError) return false;
    throw err;
  }
}

const notFound = (reply: FastifyReply) => reply.status(404).type('text/plain; charset=utf-8').header('Cache-Control', 'no-cache').send('Not Found');

async function sendFile(request: FastifyRequest, reply: FastifyReply, storage: Storage, key: string, type: string | null) {
  const stat = await storage.stat(key);
  if (!stat) return notFound(reply);
  reply
    .header('Content-Type', type ?? contentTypeOf(key))
    .header('Cache-Control', CACHE_CONTROL)
    .header('ETag', stat.etag)
    .header('Last-Modified', stat.modified.toUTCString())
    .header('Accept-Ranges', 'bytes')
    // Files come from users: no type sniffing, and a document opened from /content/ runs no script on the site's origin.
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; media-src 'self'; sandbox");
  if (fresh(request.headers, { etag: stat.etag, 'last-modified': stat.modified.toUTCString() })) return reply.status(304).send();

  let range: { start: number; end: number } | undefined;
  const header = request.headers.range;
  if (header && stat.size > 0) {
    const ranges = rangeParser(stat.size, header, { combine: true });
    if (ranges === -1) return reply.status(416).header('Content-Range', `bytes */${stat.size}`).send();
    // One range is served; a malformed header or several ranges get the whole file, which HTTP allows.
    if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) range = ranges[0];
  }
  const length = range ? range.end - range.start + 1 : stat.size;
  reply.header('Content-Length', String(length));
  if (range) reply.status(206).header('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`);
  if (request.method === 'HEAD' || length === 0) return reply.send();
  try {
    const file = await storage.open(key, range);
    return reply.send(file.body);
  } catch (err) {
    if (err instanceof MissingFileError) return notFound(reply.removeHeader('Content-Length'));
    throw err;
  }
}
