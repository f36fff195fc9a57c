import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect.js';
import type { SecretBox } from '../../auth/secret-box.js';
import { actorOf } from '../../http/actor.js';
import { hit, LIMITERS } from '../../auth/brute.js';
import { parseBody } from '../../http/parse-body.js';
import { AUTHENTICATOR } from './authenticator.schemas.js';
import { authenticatorStatus, confirmSetup, disable, newRecoveryCodes, sessionUser, startSetup } from './authenticator.service.js';

/**
 * Beyond Ghost: the signed-in user's authenticator app (TOTP) and recovery codes. Once enabled, a login
 * from a new device accepts the app's code or a recovery code wherever the e-mailed code is accepted, and
 * the user is asked for one even when e-mailed device verification is switched off. Not Ghost
 * endpoints, so errors keep their own messages (no controller rewrite).
 */
export function authenticatorRoutes(app: FastifyInstance, { db, siteUrl, secrets }: { db: Db; siteUrl: string; secrets: SecretBox }) {
  app.get('/authenticator/', async (request) => ({
    authenticator: [await authenticatorStatus(db, sessionUser(actorOf(request)))],
  }));

  app.post('/authenticator/', async (request, reply) => {
    const setup = await startSetup(db, sessionUser(actorOf(request)), siteUrl, secrets);
    reply.status(201);
    return { authenticator: [setup] };
  });

  app.put('/authenticator/', async (request) => {
    const user = sessionUser(actorOf(request));
    await hit(db, LIMITERS.userVerification, request.ip, 'user_verification');
    return { authenticator: [await confirmSetup(db, user, parseBody(request, AUTHENTICATOR).token, secrets)] };
  });

  app.delete('/authenticator/', async (request, reply) => {
    await disable(db, sessionUser(actorOf(request)), parseBody(request, AUTHENTICATOR).password);
    return reply.status(204).send();
  });

  app.post('/authenticator/recovery_codes/', async (request) => ({
    authenticator: [await newRecoveryCodes(db, sessionUser(actorOf(request)), parseBody(request, AUTHENTICATOR).password)],
  }));
}
