import type { FastifyInstance } from 'fastify';
import type { Site } from './site.js';

/** A password is a few bytes; the form is refused well before the API's body limits. */
const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * `POST <site>/private/`: the password form of a private site, a url-encoded body (the only form the site
 * takes), in its own scope so the parser applies to this route alone.
 */
export async function privateFormRoute(app: FastifyInstance, site: Site, siteUrl: string): Promise<void> {
  const path = `${new URL(siteUrl).pathname}private/`;
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.post(path, (request, reply) => site.privateLogin(request, reply));
  });
}
