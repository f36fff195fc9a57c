import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import type { Config } from '../../config.js';
import type { CtxBase } from '../../ctx.js';
import { ctxHook } from '../../http/request-ctx.js';
import { GhostError, errors } from '../../errors.js';
import { clearedSessionCookies, identityToken, memberJwks, sessionCookies } from '../../auth/member-session.js';
import { sendMagicLink, type SendMagicLinkBody } from './members-api.send.js';
import { countSendAttempt, forgetSendAttempts, integrityToken, validIntegrityToken } from './members-api.limits.js';
import { memberFromMagicLink } from './members-api.signup.js';
import { failureRedirect, redirectParams, successRedirect } from './members-api.magic-link.js';
import { currentMember, identityIssuer, memberByTransientId, memberFromLinkOrSession, memberKeys, sessionMember } from './members-api.session.js';
import { cycleTransientId, editSelf, touchLastSeen, unsuppress } from './members-api.member.js';
import { requestEmailChange } from './members-api.email.js';
import { feedbackRoutes } from './members-api.feedback.js';

/** Ghost's `cacheControl('private')`: nothing the Members API answers is kept by a cache. */
const PRIVATE = 'no-cache, private, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0';

type Query = Record<string, unknown>;

/** Ghost answers many Members API failures as plain text with the error's status. */
function plain(reply: FastifyReply, status: number, body = '') {
  return reply.status(status).type('text/plain;charset=UTF-8').send(body);
}

/** Express's `res.redirect`: 302 with its short text body. */
function found(reply: FastifyReply, location: string) {
  return reply.status(302).header('Location', location).type('text/plain; charset=utf-8').send(`Found. Redirecting to ${location}`);
}

const secureCookies = (siteUrl: string) => siteUrl.startsWith('https:');

/** The member of the request's session cookie, or null. */
const sessionOf = (request: FastifyRequest) => sessionMember(request.ctx, request.headers.cookie);

/**
 * The Members API at `<site>/members/api/`, the magic link at `<site>/members/`, and the identity-token keys
 * at `<site>/members/.well-known/jwks.json`, as Ghost 5.130.6 answers them. `GET /members/api/site/` is the
 * Admin API's `/site/` (Ghost serves the same controller): app-routes.ts passes its route in.
 */
export async function membersApiRoutes(app: FastifyInstance, base: CtxBase, config: Config, { siteRoutes }: { siteRoutes: (scope: FastifyInstance) => void }) {
  const sitePath = new URL(config.siteUrl).pathname;
  const secure = secureCookies(config.siteUrl);

  await app.register(
    async (members) => {
      members.addHook('onRequest', async (_request, reply) => {
        reply.header('Cache-Control', PRIVATE);
      });
      await members.register(cors, { origin: '*', maxAge: 86400 });
      members.addHook('onRequest', ctxHook(base));

      // The magic link: exchanged for the session cookies, then a redirect (never an error page).
      members.get<{ Querystring: Query }>('/', async (request, reply) => {
        const token = request.query.token;
        if (!request.url.includes('token=') || (typeof token !== 'string' && !Array.isArray(token))) throw errors.notFound();
        const params = redirectParams(request.query);
        const ctx = request.ctx;
        // Ghost answers every failure here, a database error included, with the failure redirect and no session.
        try {
          const member = await memberFromMagicLink(ctx, Array.isArray(token) ? String(token[0]) : token);
          if (!member) {
            request.log.warn('magic link refused');
            return found(reply, failureRedirect(ctx.site.url, params));
          }
          const { cookieSecret } = await memberKeys(ctx);
          reply.header('Set-Cookie', sessionCookies(member.transient_id, cookieSecret, secure, ctx.clock.epochMs()));
          await forgetSendAttempts(ctx, request.ip, member.email);
          await touchLastSeen(ctx, member);
          return found(reply, await successRedirect(ctx, member, request.query, new URLSearchParams(params)));
        } catch (err) {
          request.log.error({ err }, 'magic link failed');
          reply.removeHeader('Set-Cookie');
          return found(reply, failureRedirect(ctx.site.url, params));
        }
      });

      members.get('/.well-known/jwks.json', async (request) => memberJwks((await memberKeys(request.ctx)).privateKey));

      await members.register(
        async (api) => {
          siteRoutes(api);
          api.get('/integrity-token/', async (request, reply) =>
            plain(reply, 200, integrityToken((await memberKeys(request.ctx)).cookieSecret, request.ctx.clock.epochMs())),
          );

          api.post<{ Body: SendMagicLinkBody | undefined }>('/send-magic-link/', async (request, reply) => {
            const ctx = request.ctx;
            const body = (request.body && typeof request.body === 'object' ? request.body : {}) as SendMagicLinkBody;
            if (!validIntegrityToken((await memberKeys(ctx)).cookieSecret, body.integrityToken, ctx.clock.epochMs())) {
              request.log.warn(body.integrityToken ? 'Request with invalid integrity token.' : 'Request with missing integrity token.');
              if (config.members.verifyRequestIntegrity) throw errors.badRequest();
            }
            await countSendAttempt(ctx, request.ip, body.email);
            const outcome = await sendMagicLink(ctx, body, { referer: request.headers.referer ?? null, ip: request.ip });
            return plain(reply, outcome.status, outcome.body);
          });

          api.get('/member/', async (request, reply) => {
            const member = await sessionOf(request);
            if (!member) return plain(reply, 204);
            await touchLastSeen(request.ctx, member);
            return (await currentMember(request.ctx, member)).data;
          });

          api.put<{ Body: Record<string, unknown> | undefined }>('/member/', async (request, reply) => {
            try {
              const member = await sessionOf(request);
              if (!member) throw errors.badRequest('Cookie ghost-members-ssr not found');
              await editSelf(request.ctx, member, request.body ?? {}, ['name', 'expertise', 'subscribed', 'newsletters', 'enable_comment_notifications']);
              const updated = await memberByTransientId(request.ctx, member.transient_id);
              return updated ? (await currentMember(request.ctx, updated)).data : null;
            } catch (err) {
              return textError(request, reply, err);
            }
          });

          api.post<{ Body: Record<string, unknown> | undefined }>('/member/email/', async (request, reply) => {
            const outcome = await requestEmailChange(request.ctx, request.body ?? {});
            return plain(reply, outcome.status, outcome.body);
          });

          api.get<{ Querystring: Query }>('/member/newsletters/', async (request, reply) => {
            const member = await memberFromLinkOrSession(request);
            return (await newsletterPrefs(request, member)) ?? plain(reply, 404, 'Email address not found.');
          });

          api.put<{ Querystring: Query; Body: Record<string, unknown> | undefined }>('/member/newsletters/', async (request, reply) => {
            const member = await memberFromLinkOrSession(request);
            try {
              await editSelf(request.ctx, member, request.body ?? {}, ['newsletters', 'enable_comment_notifications']);
              const updated = await memberByTransientId(request.ctx, member.transient_id);
              return await newsletterPrefs(request, updated ?? member);
            } catch {
              return plain(reply, 400, 'Failed to update newsletters');
            }
          });

          api.delete('/member/suppression/', async (request, reply) => {
            try {
              const member = await sessionOf(request);
              if (!member) throw errors.badRequest('Cookie ghost-members-ssr not found');
              await unsuppress(request.ctx, member);
              return plain(reply, 204);
            } catch (err) {
              return textError(request, reply, err);
            }
          });

          api.get('/session/', async (request, reply) => {
            const member = await sessionOf(request);
            if (!member) return plain(reply, 204);
            const { privateKey } = await memberKeys(request.ctx);
            return plain(reply, 200, identityToken(privateKey, identityIssuer(request.ctx.site.url), member.email, request.ctx.clock.epochMs()));
          });

          api.delete<{ Body: { all?: unknown } | undefined }>('/session/', async (request, reply) => {
            try {
              const { cookieSecret } = await memberKeys(request.ctx);
              if (request.body && typeof request.body === 'object' && request.body.all) {
                const member = await sessionOf(request);
                if (!member) throw errors.badRequest('Cookie ghost-members-ssr not found');
                await cycleTransientId(request.ctx, member.id);
              }
              reply.header('Set-Cookie', clearedSessionCookies(cookieSecret, secure));
              return plain(reply, 204);
            } catch (err) {
              return textError(request, reply, err);
            }
          });

          feedbackRoutes(api, sessionOf);

          // Paid sign-up and subscription changes go through Stripe, which this service does not connect to:
          // Ghost's answers on a site without a Stripe connection.
          api.post<{ Body: Record<string, unknown> | undefined }>('/create-stripe-checkout-session/', async (request) => {
            const body = request.body ?? {};
            const type = body.type ?? 'subscription';
            if (typeof type !== 'string' || !['subscription', 'donation'].includes(type)) throw errors.badRequest('Invalid checkout type.');
            if (type === 'subscription' && !body.offerId && !body.tierId) {
              throw errors.badRequest({ message: 'Bad Request.', context: 'Expected offerId or tierId, received none' });
            }
            if (type === 'donation') throw new GhostError('DisabledFeatureError', { message: 'This site is not accepting payments at the moment.' });
            throw errors.badRequest('Unable to initiate checkout session');
          });
          api.post<{ Body: Record<string, unknown> | undefined }>('/create-stripe-update-session/', async (request, reply) => {
            if (!request.body?.identity) return plain(reply, 400);
            throw errors.badRequest('Unable to initiate checkout session');
          });
          api.put<{ Body: Record<string, unknown> | undefined }>('/subscriptions/:id/', async (request, reply) =>
            request.body?.identity
              ? plain(reply, 400, 'Cannot update Stripe Subscription without a Stripe Connection')
              : plain(reply, 400, 'Updating subscription failed!'),
          );
          api.all('/*', async () => {
            throw errors.notFound('Resource not found');
          });
        },
        { prefix: '/api' },
      );
    },
    { prefix: `${sitePath}members` },
  );
}

/** The newsletter preferences an unsubscribe page shows (Ghost's pick of the member). */
async function newsletterPrefs(request: FastifyRequest, member: Parameters<typeof currentMember>[1]) {
  const { data } = await currentMember(request.ctx, member);
  return {
    uuid: data.uuid,
    email: data.email,
    name: data.name,
    newsletters: data.newsletters,
    enable_comment_notifications: data.enable_comment_notifications,
    status: member.status,
  };
}

/** Ghost's members middleware answers these failures as the error's message in plain text. */
function textError(request: FastifyRequest, reply: FastifyReply, err: unknown) {
  // A column check fails there as a bare 500 in Ghost too.
  if (err instanceof GhostError && err.name === 'ValidationError') return plain(reply, 500);
  if (err instanceof GhostError) return plain(reply, err.status, err.message);
  request.log.error({ err }, 'members api failure');
  return plain(reply, 500, 'An unexpected error occurred, please try again.');
}
