import type { Ctx } from '../../ctx.js';
import type { MemberRow } from '../../db/schema.js';
import { freeTierWelcomePage } from './members-api.queries.js';

/**
 * Where the browser goes after `<site>/members/?token=…&action=…&r=…` (Ghost's createSessionFromMagicLink):
 * - a sign-up (`signup`, `signup-paid`, `subscribe`) with a welcome page set on the free tier: that page,
 *   with `success=true&action=signup` when it is on this site;
 * - else the `r` referrer when it is on this site, with the link's other parameters and `success=true`
 *   (and `action=signin` for a sign-in);
 * - else the site's home, `/?<other parameters>&success=true`.
 * A refused link goes home with `success=false`, the same parameters kept.
 */
export function redirectParams(query: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === 'token' || key === 'r') continue;
    params.set(key, Array.isArray(value) ? String(value[value.length - 1]) : String(value));
  }
  return params;
}

const subdir = (siteUrl: string) => new URL(siteUrl).pathname.replace(/\/$/, '');

export function failureRedirect(siteUrl: string, params: URLSearchParams): string {
  params.set('success', 'false');
  return `${subdir(siteUrl)}/?${params.toString()}`;
}

export async function successRedirect(ctx: Ctx, _member: MemberRow, query: Record<string, unknown>, params: URLSearchParams): Promise<string> {
  const siteUrl = ctx.site.url;
  const action = typeof query.action === 'string' ? query.action : undefined;
  if (action === 'signup' || action === 'signup-paid' || action === 'subscribe') {
    // Without Stripe no member has a paid subscription: the free tier's welcome page applies.
    const free = await freeTierWelcomePage(ctx.db);
    const welcome = free?.welcome_page_url ?? '';
    if (welcome && welcome !== '/') {
      const target = new URL((welcome.endsWith('/') ? welcome : `${welcome}/`).replace(/^\//, ''), siteUrl);
      if (target.toString().startsWith(siteUrl)) {
        target.searchParams.set('success', 'true');
        target.searchParams.set('action', 'signup');
      }
      return target.href;
    }
  }
  const referrer = typeof query.r === 'string' ? query.r : undefined;
  if (referrer && referrer.startsWith(siteUrl)) {
    const target = new URL(referrer);
    params.forEach((value, key) => target.searchParams.set(key, value));
    target.searchParams.set('success', 'true');
    if (action === 'signin') target.searchParams.set('action', 'signin');
    return target.href;
  }
  params.set('success', 'true');
  return `${subdir(siteUrl)}/?${params.toString()}`;
}
