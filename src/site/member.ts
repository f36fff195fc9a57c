import type { FastifyRequest } from 'fastify';
import type { Ctx, MemberAccess } from '../ctx.js';

/** The member cookie Ghost's Members API sets; a request carrying it is never answered from the shared page cache. */
export const MEMBER_COOKIE = 'ghost-members-ssr';

/** A signed-in reader as the site needs one: their access (for gated content) and Ghost's member data (`@member`). */
export interface SiteMember {
  access: MemberAccess;
  data: Record<string, unknown>;
}

/**
 * Finds the signed-in member of a site request (the Members API's session cookie), or null. The Members API
 * provides it through app.ts: the site layer does not import resources.
 */
export type SiteMemberResolver = (ctx: Ctx, request: FastifyRequest) => Promise<SiteMember | null>;

/** Whether the request may carry a signed-in member (then its page is personal: not kept, not served from the cache). */
export const hasMemberCookie = (cookies: Record<string, string | undefined>) => Boolean(cookies[MEMBER_COOKIE] || cookies[`${MEMBER_COOKIE}.sig`]);
