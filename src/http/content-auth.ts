import type { FastifyRequest } from 'fastify';
import { preparedQuery } from '../db/prepared.js';
import type { ReadDb } from '../db/read-db.js';
import { errors } from '../errors.js';

const apiKeyBySecret = preparedQuery((db, $: { secret: string }) => db.selectFrom('api_keys').select(['id', 'type']).where('secret', '=', $.secret));

/** Content API: every route needs a content key in `?key=`. */
export function contentAuthHook(db: ReadDb) {
  return async function authenticateContent(request: FastifyRequest) {
    const key = (request.query as Record<string, unknown> | undefined)?.key;
    if (key === undefined || key === '') {
      throw errors.noPermission({
        message: 'Authorization failed',
        context:
          'Unable to determine the authenticated member or integration. Check the supplied Content API Key and ensure cookies are being passed through if member auth is failing.',
      });
    }
    if (typeof key !== 'string') throw errors.badRequest({ message: 'Invalid Request', code: 'INVALID_REQUEST' });
    const [apiKey] = await apiKeyBySecret(db, { secret: key });
    if (!apiKey) throw errors.unauthorized({ message: 'Unknown Content API Key', code: 'UNKNOWN_CONTENT_API_KEY' });
    if (apiKey.type !== 'content') throw errors.unauthorized({ message: 'Invalid API Key type', code: 'INVALID_API_KEY_TYPE' });
  };
}
