import type { FastifyInstance, FastifyRequest } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { parseBody } from '../../http/parse-body.js';
import { hit, LIMITERS, reset } from '../../auth/brute.js';
import { assertSetupState } from '../setup/setup.service.js';
import { completeReset, requestReset } from './authentication.reset.js';
import { acceptInvitation, assertEmail } from './authentication.invitation.js';
import { ACCEPT_INVITATION, RESET_PASSWORD, RESET_REQUEST } from './authentication.schemas.js';
import { hasSentInvite } from '../invites/invites.queries.js';
import { resetAllPasswords } from './authentication.global-reset.js';

// None of these is one of the five controller verbs: their errors keep their own messages.
const frame = framesOf('authentication');
const pathOf = (request: FastifyRequest) => request.url.split('?')[0]!;

/** Password reset, invitation acceptance and the global password reset (`/authentication/…`). */
export function authenticationRoutes(app: FastifyInstance) {
  app.post('/authentication/password_reset/', { config: { auth: 'public', frame: frame('generateResetToken') } }, async (request) => {
    const db = request.ctx.autocommitDb;
    const { email } = parseBody(request, RESET_REQUEST);
    await hit(db, LIMITERS.globalReset, request.ip, pathOf(request), request.ctx.clock.epochMs());
    await hit(db, LIMITERS.userReset, request.ip, `${typeof email === 'string' ? email.toLowerCase() : ''}reset`, request.ctx.clock.epochMs());
    await assertSetupState(db, true);
    await requestReset(request.ctx, email);
    return { password_reset: [{ message: 'Check your email for further instructions.' }] };
  });

  app.put('/authentication/password_reset/', { config: { auth: 'public', frame: frame('resetPassword') } }, async (request) => {
    const db = request.ctx.autocommitDb;
    await hit(db, LIMITERS.globalBlock, request.ip, pathOf(request), request.ctx.clock.epochMs());
    const data = parseBody(request, RESET_PASSWORD);
    await assertSetupState(db, true);
    const { emailVerificationToken } = await completeReset(request.ctx, data);
    await reset(db, LIMITERS.userLogin, request.ip, 'user_login');
    return { password_reset: [{ message: 'Password updated', emailVerificationToken }] };
  });

  app.get<{ Querystring: { email?: unknown } }>(
    '/authentication/invitation/',
    { config: { auth: 'public', frame: frame('isInvitation') } },
    async (request) => {
      const db = request.ctx.autocommitDb;
      const email = assertEmail(request.query.email);
      await assertSetupState(db, true);
      return { invitation: [{ valid: await hasSentInvite(db, email) }] };
    },
  );

  app.post('/authentication/invitation/', { config: { auth: 'public', frame: frame('acceptInvitation') } }, async (request) => {
    const db = request.ctx.autocommitDb;
    const data = parseBody(request, ACCEPT_INVITATION);
    await assertSetupState(db, true);
    await acceptInvitation(request.ctx, data);
    return { invitation: [{ message: 'Invitation accepted.' }] };
  });

  app.post(
    '/authentication/global_password_reset/',
    {
      config: { frame: frame('resetAllPasswords'), permission: 'authentication.resetAllPasswords' },
    },
    async (request, reply) => {
      await resetAllPasswords(request.ctx);
      return reply.status(204).send();
    },
  );
}
