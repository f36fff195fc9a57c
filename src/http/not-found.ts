import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../errors.js';
import { SERVER_VERSION, apiHeaders } from './api-headers.js';
import { renderError } from './render-error.js';

/** `v5`, `5.2`, `v5.130.1` → [major, minor, patch]; null when not a version. */
function coerceVersion(raw: string): [number, number, number] | null {
  const match = /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(raw);
  if (!match) return null;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * Unmatched routes: Ghost's 404 `Resource not found`, unless the client's Accept-Version explains the miss
 * (ahead of or behind the server → 406 with an upgrade hint; unparsable → 400).
 */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  apiHeaders(request, reply);
  const accept = request.headers['accept-version'];
  if (typeof accept === 'string') {
    const client = coerceVersion(accept);
    if (!client) return renderError(errors.badRequest('Requested version is not supported.'), request, reply);
    const server = coerceVersion(SERVER_VERSION)!;
    const order = compare(client, server);
    if (order !== 0) {
      const ahead = order > 0;
      return renderError(
        errors.requestNotAcceptable({
          message: 'Request could not be served, the endpoint was not found.',
          context: `Provided client accept-version ${accept} is ${ahead ? 'ahead of' : 'behind'} current Ghost version v${SERVER_VERSION}.`,
          help: ahead ? 'Try upgrading your Ghost install.' : 'Try upgrading your Ghost API client.',
          code: ahead ? 'UPDATE_GHOST' : 'UPDATE_CLIENT',
        }),
        request,
        reply,
      );
    }
  }
  return renderError(errors.notFound('Resource not found'), request, reply);
}
