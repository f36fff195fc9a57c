import type { FastifyRequest } from 'fastify';
import semver from 'semver';
import { errors } from '../errors.js';

/** The full server version Ghost compares `X-Ghost-Version` with. */
const SERVER_VERSION_FULL = '5.130.6';

/**
 * Ghost Admin's `X-Ghost-Version` check: a client on an earlier minor version is fine; a later minor or
 * another major is refused (400 VersionMismatchError); an unreadable version is a 400 BadRequestError.
 */
export async function checkVersionMatch(request: FastifyRequest): Promise<void> {
  const clientVersion = request.headers['x-ghost-version'];
  if (typeof clientVersion !== 'string' || clientVersion === '') return;
  const constraint = `^${clientVersion}.0`;
  if (!semver.validRange(constraint)) throw errors.badRequest(`Client request for ${clientVersion} is invalid.`);
  if (!semver.satisfies(SERVER_VERSION_FULL, constraint)) {
    throw errors.versionMismatch(`Client request for ${clientVersion} does not match server version ${SERVER_VERSION_FULL}.`);
  }
}
