import type { FastifyRequest } from 'fastify';

/** `Location` of a new resource: the request URL (without query) plus the new id, as Ghost sets it. */
export function locationOf(request: FastifyRequest, id: string): string {
  const path = request.url.split('?')[0]!.replace(/\/?$/, '/');
  return `${request.protocol}://${request.host}${path}${id}/`;
}
