import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../auth/actor.js';
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
export function authenticatorRoutes(app: FastifyInstance) {
  app.get('/authenticator/', async (request) => ({
    authenticator: [await authenticatorStatus(request.ctx)],
  }));

  app.post('/authenticator/', async (request, reply) => {
    const setup = await startSetup(request.ctx);
    reply.status(201);
    return { authenticator: [setup] };
  });

  app.put('/authenticator/', async (request) => {
    // A staff token is refused before it can use up the session's allowance of guesses.
    sessionUser(actorOf(request.ctx));
    await hit(request.ctx.autocommitDb, LIMITERS.userVerification, request.ip, 'user_verification', request.ctx.clock.epochMs());
    return { authenticator: [await confirmSetup(request.ctx, parseBody(request, AUTHENTICATOR).token)] };
  });

  app.delete('/authenticator/', async (request, reply) => {
    await disable(request.ctx, parseBody(request, AUTHENTICATOR).password);
    return reply.status(204).send();
  });

  app.post('/authenticator/recovery_codes/', async (request) => ({
    authenticator: [await newRecoveryCodes(request.ctx, parseBody(request, AUTHENTICATOR).password)],
  }));
}
