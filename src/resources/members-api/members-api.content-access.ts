import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { CtxBase, MemberAccess } from '../../ctx.js';
import type { MemberRow } from '../../db/schema.js';
import { sessionMember, memberFromIdentityToken } from './members-api.session.js';
import { tierIdsOfMember } from './members-api.queries.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Content API request's member, resolved before the response cache is looked at. */
    memberAccess?: MemberAccess | null;
  }
}

/**
 * The Content API answers a signed-in member with their access (`access`, gated `html`), as Ghost does when
 * the `ghost-members-ssr` cookie comes along; beyond Ghost, with `MEMBERS_BEARER_TOKENS`, an identity token
 * (`GET /members/api/session/`) as `Authorization: Bearer <token>` does the same for front ends on other hosts.
 *
 * `resolve` runs before the response cache: the member's access (status and tiers, all an answer depends on)
 * becomes part of the cache key, so kept answers are shared by members with the same access and never cross
 * from one access to another. `attach` puts the member on the request's ctx once it is built.
 */
export function memberAccessHooks(base: CtxBase, config: Config) {
  const bearer = config.members.bearerTokens;
  return {
    async resolve(request: FastifyRequest) {
      const row = await memberOf(request);
      if (!row) {
        request.memberAccess = null;
        return;
      }
      const tiers = await tierIdsOfMember(base.db, row.id);
      const access: MemberAccess = { status: row.status, tierIds: tiers.map((t) => t.product_id).sort() };
      request.memberAccess = access;
      request.cacheVariant = `member:${access.status}:${access.tierIds.join(',')}`;
    },
    async attach(request: FastifyRequest) {
      if (request.memberAccess) (request.ctx as { member?: MemberAccess | null }).member = request.memberAccess;
    },
  };

  async function memberOf(request: FastifyRequest): Promise<MemberRow | null> {
    const auth = request.headers.authorization;
    if (bearer && auth && /^Bearer\s+/i.test(auth)) {
      const found = await memberFromIdentityToken(base, auth.replace(/^Bearer\s+/i, '').trim());
      return found?.row ?? null;
    }
    return sessionMember(base, request.headers.cookie);
  }
}
