import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, GhostError } from '../../errors.js';
import { actorOf } from '../../auth/actor.js';
import { requestOrigin } from '../../http/origin.js';
import { createSession, deleteSession, detachUser, findSession, markVerified, SESSION_COOKIE, SESSION_LIFETIME_MS } from '../../auth/sessions.js';
import { hit, LIMITERS, reset } from '../../auth/brute.js';
import { acceptCode, codeAlwaysRequired, loginIsVerified, type DeviceVerification } from '../../auth/device-verification.js';
import { presentSessionUser } from '../users/users.present.js';
import { findUserByEmail, findUserById } from '../users/users.queries.js';
import { sendResetMail } from '../authentication/authentication.reset.js';
import { checkCredentials } from './session.service.js';
import { parseBody } from '../../http/parse-body.js';
import { LOGIN, VERIFY } from './session.schemas.js';
import { sendSignInCode } from './session.sign-in-code.js';

export interface SessionRouteOptions {
  /** `STAFF_DEVICE_VERIFICATION`: ask for an e-mailed code when a login comes from a new device. */
  deviceVerification: boolean;
}

const text = (reply: FastifyReply, status: number, body: string) => reply.status(status).type('text/plain; charset=utf-8').send(body);
const pathOf = (request: FastifyRequest) => request.url.split('?')[0]!;

/**
 * Login, logout and device verification. The session controller is not pipelined in Ghost: its errors
 * are never rewritten, so no route here has a frame.
 */
export function sessionRoutes(app: FastifyInstance, { deviceVerification }: SessionRouteOptions) {
  const verificationOf = ({ ctx }: FastifyRequest): DeviceVerification => ({ db: ctx.autocommitDb, secrets: ctx.secrets, enabled: deviceVerification });

  function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
    const site = new URL(request.ctx.site.url);
    const secure = site.protocol === 'https:';
    reply.setCookie(SESSION_COOKIE, token, {
      path: `${site.pathname}ghost`,
      expires: new Date(request.ctx.clock.epochMs() + SESSION_LIFETIME_MS),
      httpOnly: true,
      secure,
      sameSite: secure ? 'none' : 'lax',
    });
  }

  const presentedSession = async (request: FastifyRequest) => {
    const token = request.cookies[SESSION_COOKIE];
    return token ? findSession(request.ctx.db, token, request.ctx.clock.now()) : undefined;
  };

  app.post('/session/', { config: { auth: 'public' } }, async (request, reply) => {
    const { ctx } = request;
    const db = ctx.autocommitDb;
    await hit(db, LIMITERS.globalBlock, request.ip, pathOf(request), ctx.clock.epochMs());
    await hit(db, LIMITERS.userLogin, request.ip, 'user_login', ctx.clock.epochMs());
    const credentials = parseBody(request, LOGIN);
    const { user, firstLogin } = await checkCredentials(ctx, credentials).catch(async (err: unknown) => {
      // A locked account (imported, or after a global reset) is mailed a reset link, as Ghost does.
      if (err instanceof GhostError && err.name === 'PasswordResetRequiredError' && typeof credentials.username === 'string') {
        const locked = await findUserByEmail(db, credentials.username);
        if (locked) await sendResetMail(ctx, locked).catch((mailError) => request.log.error({ err: mailError }, 'reset mail failed'));
      }
      throw err;
    });
    await reset(db, LIMITERS.userLogin, request.ip, 'user_login');
    const origin = requestOrigin(request, ctx.site.url);
    if (!origin) throw errors.badRequest('Could not determine origin of request. Please ensure an Origin or Referrer header is present.');

    const presented = await presentedSession(request);
    const verified = await loginIsVerified(verificationOf(request), { user, firstLogin, code: credentials.token, presented, at: ctx.clock.now() });
    const userAgent = request.headers['user-agent'] ?? null;
    const { token } = await createSession(db, { userId: user.id, origin, userAgent, ip: request.ip, verified }, ctx.clock.now());
    // A new cookie on every login: whatever the browser held before stops working.
    if (presented) await deleteSession(db, presented.id);
    setSessionCookie(request, reply, token);
    if (!verified) {
      await sendSignInCode(request.ctx, user, { user_agent: userAgent, ip: request.ip });
      throw errors.noPermission({
        type: 'Needs2FAError',
        message: 'User must verify session to login.',
        context: 'A 6-digit sign-in verification code has been sent to your email to keep your account safe.',
        code: (await codeAlwaysRequired(db)) ? '2FA_TOKEN_REQUIRED' : '2FA_NEW_DEVICE_DETECTED',
      });
    }
    return text(reply, 201, 'Created');
  });

  app.get('/session/', async (request) => {
    const { user } = actorOf(request.ctx);
    if (!user) throw errors.notFound('User not found.');
    return presentSessionUser(user);
  });

  app.delete('/session/', async (request, reply) => {
    const { autocommitDb: db, clock } = request.ctx;
    const { session } = actorOf(request.ctx);
    if (session) await detachUser(db, session.id, clock.now(), await codeAlwaysRequired(db));
    return reply.status(204).send();
  });

  // Device verification works on the cookie's session directly: it is not authenticated yet.
  app.post('/session/verify/', { config: { auth: 'public' } }, async (request, reply) => {
    const db = request.ctx.autocommitDb;
    await hit(db, LIMITERS.sendVerificationCode, request.ip, 'send_verification_code', request.ctx.clock.epochMs());
    const session = await presentedSession(request);
    const user = session?.user_id ? await findUserById(db, session.user_id) : undefined;
    if (!session || !user) throw errors.badRequest('Could not fetch user from the session.');
    await sendSignInCode(request.ctx, user, session);
    return text(reply, 200, 'OK');
  });

  app.put('/session/verify/', { config: { auth: 'public' } }, async (request, reply) => {
    const { autocommitDb: db, clock } = request.ctx;
    await hit(db, LIMITERS.userVerification, request.ip, 'user_verification', request.ctx.clock.epochMs());
    const session = await presentedSession(request);
    const code = parseBody(request, VERIFY).token;
    // Ghost answers both with a bare text/plain `Unauthorized`; its admin app reads a JSON UnauthorizedError the same.
    if (!session?.user_id) throw errors.unauthorized('There is no signed-in session to verify: log in first and send the code with its session cookie.');
    if (!(await acceptCode(db, session.user_id, code, request.ctx.secrets, clock.now())))
      throw errors.unauthorized('The verification code is incorrect, expired or already used.');
    await markVerified(db, session.id, session.user_id, clock.now());
    // Only wrong codes should use up the allowance: a success starts the count again.
    await reset(db, LIMITERS.userVerification, request.ip, 'user_verification');
    return text(reply, 200, 'OK');
  });
}
