import type { FastifyRequest } from 'fastify';

/**
 * The origin a request claims, as Ghost computes it: the Origin header; else protocol and host of the
 * Referer; with neither, the site's own origin. A literal `null` Origin or an unusable Referer gives none.
 */
export function requestOrigin(request: FastifyRequest, siteUrl: string): string | null {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (origin === 'null') return null;
    return origin;
  }
  const referer = request.headers.referer;
  if (referer !== undefined) {
    try {
      const url = new URL(referer);
      return url.host ? `${url.protocol}//${url.host}` : null;
    } catch {
      return null;
    }
  }
  return new URL(siteUrl).origin;
}
