import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import { decodeToken, verifyAdminToken } from '../auth/admin-jwt.js';
import { findSession, SESSION_COOKIE } from '../auth/sessions.js';
import { requestOrigin } from './origin.js';
import type { Actor } from '../auth/actor.js';
import type { CtxBase } from '../ctx.js';
import type { RoleName } from '../auth/roles.js';
import { adminAudience } from './legacy-versions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the admin authentication hook; services read it from `request.ctx`. */
    actor?: Actor;
  }
}

const LAST_SEEN_REFRESH_MS = 60 * 60 * 1000;
const DISABLED_STATUSES = new Set(['inactive', 'locked']);

/** First path segment → methods an integration key may call (Ghost's admin middleware allow-list). */
const INTEGRATION_ALLOW_LIST: Record<string, readonly string[]> = {
  site: ['GET'],
  posts: ['GET', 'PUT', 'DELETE', 'POST'],
  pages: ['GET', 'PUT', 'DELETE', 'POST'],
  tags: ['GET', 'PUT', 'DELETE', 'POST'],
  labels: ['GET', 'PUT', 'DELETE', 'POST'],
  members: ['GET', 'PUT', 'DELETE', 'POST'],
  images: ['POST'],
  files: ['POST'],
  media: ['POST'],
  // GET: Quire's delivery history (`/webhooks/:id/deliveries/`); Ghost has no GET route under webhooks.
  webhooks: ['GET', 'POST', 'PUT', 'DELETE'],
  actions: ['GET'],
  users: ['GET'],
  roles: ['GET'],
  config: ['GET'],
  explore: ['GET'],
  settings: ['GET'],
  oembed: ['GET'],
  'search-index': ['GET'],
  invites: ['POST'],
  themes: ['POST', 'PUT'],
  tiers: ['GET', 'PUT', 'POST'],
  offers: ['GET', 'PUT', 'POST'],
  newsletters: ['GET', 'PUT', 'POST'],
  schedules: ['PUT'],
  db: ['GET', 'POST'],
  comments: ['GET', 'POST', 'PUT'],
};

/** Routes staff tokens may not call even though their user's role could. */
const STAFF_TOKEN_BLOCKED = [
  ['DELETE', 'db'],
  ['PUT', 'users/owner'],
] as const;

/**
 * Establishes `request.actor` for Admin API routes: an admin-key JWT when an Authorization header is
 * present, else a verified session cookie. Public routes are skipped; errors here are never rewritten.
 */
/** How the hook finds a key's or session's user and role: the users resource's queries, passed in by app.ts (http imports no resource). */
export interface StaffLookup {
  findUserById(db: Db, id: string): Promise<UserRow | undefined>;
  roleNameOfUser(db: Db, userId: string): Promise<RoleName | null>;
}

export function adminAuthHook({ db, site, clock }: CtxBase, staff: StaffLookup) {
  return async function authenticateAdmin(request: FastifyRequest, _reply: FastifyReply) {
    const { auth } = request.routeOptions.config;
    if (auth === 'public') return;
    if (auth === 'url-token') {
      // Ghost's URL-token routes read only `?token=`: no header, no session.
      const token = (request.query as Record<string, unknown>).token;
      if (typeof token !== 'string' || !token) throw errors.unauthorized({ message: 'Invalid token: No token found in URL', code: 'INVALID_JWT' });
      request.actor = await actorFromJwt(db, staff, token, adminAudience(request), clock.epochMs(), false);
    } else if (request.headers.authorization !== undefined) {
      request.actor = await actorFromToken(db, staff, request.headers.authorization, adminAudience(request), clock.epochMs());
    } else if (request.headers.cookie !== undefined) {
      request.actor = await actorFromSession(db, staff, request, site.url, clock.now());
    }
    const actor = request.actor;
    if (!actor) {
      throw errors.noPermission({
        message: 'Authorization failed',
        context: 'Unable to determine the authenticated user or integration. Check that cookies are being passed through if using session authentication.',
      });
    }
    const at = clock.now();
    if (actor.user && (!actor.user.last_seen || at.getTime() - actor.user.last_seen.getTime() > LAST_SEEN_REFRESH_MS)) {
      await db.updateTable('users').set({ last_seen: at }).where('id', '=', actor.user.id).execute();
    }
    const path = request.url.slice(site.adminRoot.length).split('?')[0]!.replace(/\/$/, '');
    if (actor.kind === 'integration') {
      const allowed = INTEGRATION_ALLOW_LIST[path.split('/')[0]!];
      if (!allowed?.includes(request.method)) throw errors.notImplemented();
    } else if (actor.kind === 'staff' && STAFF_TOKEN_BLOCKED.some(([method, blocked]) => method === request.method && path === blocked)) {
      throw errors.noPermission('Staff tokens are not allowed to access this endpoint');
    }
  };
}

async function actorFromToken(db: Db, staff: StaffLookup, header: string, audience: RegExp, nowMs: number): Promise<Actor> {
  const [scheme, token] = header.split(' ');
  if (!scheme || !/^(ghost|service)$/i.test(scheme) || !token) {
    throw errors.unauthorized({ message: 'Authorization header format is "Authorization: Ghost [token]"', code: 'INVALID_AUTH_HEADER' });
  }
  return actorFromJwt(db, staff, token, audience, nowMs, true);
}

async function actorFromJwt(db: Db, staff: StaffLookup, token: string, audience: RegExp, nowMs: number, maxAge: boolean): Promise<Actor> {
  const decoded = decodeToken(token);
  if (!decoded) throw errors.badRequest({ message: 'Invalid token', code: 'INVALID_JWT' });
  const kid = decoded.header.kid;
  if (!kid) throw errors.badRequest({ message: 'Admin API kid missing.', code: 'MISSING_ADMIN_API_KID' });
  const apiKey = typeof kid === 'string' ? await db.selectFrom('api_keys').selectAll().where('id', '=', kid).executeTakeFirst() : undefined;
  if (!apiKey) throw errors.unauthorized({ message: 'Unknown Admin API Key', code: 'UNKNOWN_ADMIN_API_KEY' });
  if (apiKey.type !== 'admin') throw errors.unauthorized({ message: 'Invalid API Key type', code: 'INVALID_API_KEY_TYPE' });
  verifyAdminToken(decoded, apiKey.secret, audience, nowMs, { maxAge });

  if (apiKey.user_id) {
    const user = await staff.findUserById(db, apiKey.user_id);
    const role = user && user.status === 'active' ? await staff.roleNameOfUser(db, user.id) : null;
    if (!user || !role) throw errors.unauthorized({ message: 'Unknown Admin API Key', code: 'UNKNOWN_ADMIN_API_KEY' });
    return { kind: 'staff', user, role, session: null, apiKey };
  }
  const role = apiKey.role_id ? await db.selectFrom('roles').select('name').where('id', '=', apiKey.role_id).executeTakeFirst() : undefined;
  return { kind: 'integration', user: null, role: (role?.name ?? 'Admin Integration') as RoleName, session: null, apiKey };
}

async function actorFromSession(db: Db, staff: StaffLookup, request: FastifyRequest, siteUrl: string, at: Date): Promise<Actor | undefined> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return undefined;
  const session = await findSession(db, token, at);
  if (!session?.user_id || !session.verified) return undefined;
  const origin = requestOrigin(request, siteUrl);
  if (session.origin && origin !== session.origin) {
    throw errors.badRequest(`Request made from incorrect origin. Expected '${session.origin}' received '${origin}'.`);
  }
  const user = await staff.findUserById(db, session.user_id);
  if (!user || DISABLED_STATUSES.has(user.status)) return undefined;
  const role = await staff.roleNameOfUser(db, user.id);
  if (!role) return undefined;
  return { kind: 'session', user, role, session, apiKey: null };
}
