import type { FastifyReply, FastifyRequest } from 'fastify';
import { legacyHeaders } from './legacy-versions.js';

export const SERVER_VERSION = '5.130';
export const NO_CACHE = 'no-cache, private, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0';
export const NOT_FOUND_NO_CACHE = 'no-cache, max-age=0, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0';

/** Headers Ghost puts on every API response (errors included). */
export function apiHeaders(request: FastifyRequest, reply: FastifyReply) {
  reply.header('Content-Version', `v${SERVER_VERSION}`);
  reply.header('Vary', 'Accept-Version');
  reply.header('Cache-Control', NO_CACHE);
  legacyHeaders(request, reply);
}
