import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../../db/connect.js';
import { errors } from '../../errors.js';
import { actorOf } from '../../http/actor.js';
import { requestOrigin } from '../../http/origin.js';
import { createSession, detachUser, SESSION_COOKIE, SESSION_LIFETIME_MS } from '../../auth/sessions.js';
import { presentSessionUser } from '../users/users.present.js';
import { checkCredentials, type Credentials } from './session.service.js';

export interface SessionRouteOptions {
  db: Db;
  siteUrl: string;
  /**
   * Decides whether a fresh login may use its session at once or must first prove the device (a code
   * e-mailed to the user). Device verification plugs in here.
   */
  loginIsVerified: (input: { userId: string; firstLogin: boolean; token: unknown }) => Promise<boolean>;
}

export function sessionRoutes(app: FastifyInstance, { db, siteUrl, loginIsVerified }: SessionRouteOptions) {
  const site = new URL(siteUrl);
  const secure = site.protocol === 'https:';
  const cookiePath = `${site.pathname}ghost`;

  function setSessionCookie(reply: FastifyReply, token: string) {
    reply.setCookie(SESSION_COOKIE, token, {
      path: cookiePath,
      expires: new Date(Date.now() + SESSION_LIFETIME_MS),
      httpOnly: true,
      secure,
      sameSite: secure ? 'none' : 'lax',
    });
  }

  app.post('/session/', { config: { auth: 'public' } }, async (request, reply) => {
    const credentials = (request.body ?? {}) as Credentials;
    const { user, firstLogin } = await checkCredentials(db, credentials);
    const origin = requestOrigin(request, siteUrl);
    if (!origin) throw errors.badRequest('Could not determine origin of request. Please ensure an Origin or Referrer header is present.');
    const verified = await loginIsVerified({ userId: user.id, firstLogin, token: credentials.token });
    const { token } = await createSession(db, {
      userId: user.id,
      origin,
      userAgent: request.headers['user-agent'] ?? null,
      ip: request.ip,
      verified,
    });
    setSessionCookie(reply, token);
    if (!verified) {
      throw errors.noPermission({
        type: 'Needs2FAError',
        message: 'User must verify session to login.',
        context: 'A 6-digit sign-in verification code has been sent to your email to keep your account safe.',
        code: '2FA_NEW_DEVICE_DETECTED',
      });
    }
    return reply.status(201).type('text/plain; charset=utf-8').send('Created');
  });

  // The session controller is not pipelined in Ghost: its errors are never rewritten, so no frame.
  app.get('/session/', async (request) => {
    const { user } = actorOf(request);
    if (!user) throw errors.notFound('User not found.');
    return presentSessionUser(user);
  });

  app.delete('/session/', async (request, reply) => {
    const { session } = actorOf(request);
    if (session) await detachUser(db, session.id);
    return reply.status(204).send();
  });
}
