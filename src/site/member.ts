import type { Ctx } from '../ctx.js';

/** The member cookie Ghost's Members API sets; a request carrying it is never answered from the shared page cache. */
export const MEMBER_COOKIE = 'ghost-members-ssr';

/**
 * `@member` for the page being rendered. Null for every visitor until the member sign-in work fills this in
 * (it reads the `ghost-members-ssr` session and returns Ghost's member shape: uuid, email, name, firstname,
 * avatar_image, subscriptions, paid, status). The one hook for it: nothing else in the site reads members.
 */
export async function memberOf(ctx: Ctx, cookies: Record<string, string | undefined>): Promise<Record<string, unknown> | null> {
  void ctx;
  void cookies;
  return null;
}

/** Whether the request may carry a signed-in member (then its page is personal: not kept, not served from the cache). */
export const hasMemberCookie = (cookies: Record<string, string | undefined>) => Boolean(cookies[MEMBER_COOKIE] || cookies[`${MEMBER_COOKIE}.sig`]);
