import { createHash, timingSafeEqual } from 'node:crypto';
import { lazyTemplate } from './handlebars.js';

/**
 * A private site (settings `is_private` and `password`), as Ghost's private-blogging app keeps it: every
 * page answers a redirect to `/private/` until the visitor has given the password, which sets the
 * `ghost-private` cookie (cookie-session's format: base64 JSON of a salted SHA-256 of the password, so
 * changing the password ends every session). The feeds stay readable under the secret `public_hash`.
 */
export const PRIVATE_COOKIE = 'ghost-private';
const THIRTY_DAYS_MS = 30 * 24 * 60 * 60 * 1000;

export interface PrivateState {
  password: string;
  publicHash: string | null;
}

/** The private mode in effect, or null when the site is public. */
export function privateState(values: ReadonlyMap<string, string | null>): PrivateState | null {
  if (values.get('is_private') !== 'true') return null;
  return { password: values.get('password') ?? '', publicHash: values.get('public_hash') || null };
}

const tokenOf = (password: string, salt: string) =>
  createHash('sha256')
    .update(password + salt, 'utf8')
    .digest('hex');

/** Whether the request's `ghost-private` cookie was made with the current password. */
export function hasPrivateSession(cookies: Record<string, string | undefined>, state: PrivateState): boolean {
  const raw = cookies[PRIVATE_COOKIE];
  if (!raw) return false;
  try {
    const { token, salt } = JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as { token?: unknown; salt?: unknown };
    if (typeof token !== 'string' || typeof salt !== 'string' || !token || !salt) return false;
    const expected = Buffer.from(tokenOf(state.password, salt));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  } catch {
    return false;
  }
}

/** The `Set-Cookie` value after a right password, as cookie-session writes Ghost's. */
export function privateSessionCookie(password: string, now: Date): string {
  const salt = String(now.getTime());
  const value = Buffer.from(JSON.stringify({ token: tokenOf(password, salt), salt })).toString('base64');
  const expires = new Date(now.getTime() + THIRTY_DAYS_MS).toUTCString();
  return `${PRIVATE_COOKIE}=${value}; path=/; expires=${expires}; samesite=none; httponly`;
}

/** Where a right password sends the visitor: the `r` path when it stays on this site, else the home page. */
export function forwardPath(r: unknown, siteUrl: string): string {
  try {
    const redirect = decodeURIComponent(typeof r === 'string' && r ? r : '/');
    const base = new URL(siteUrl);
    const target = new URL(new URL(redirect, siteUrl).pathname, siteUrl);
    return target.host === base.host ? target.pathname : '/';
  } catch {
    return '/';
  }
}

/** The path a private feed URL stands for (`/<hash>/rss/` → `/rss/`, `/tag/x/<hash>/rss/` → `/tag/x/rss/`), or null. */
export function privateFeedPath(path: string, state: PrivateState): string | null {
  if (!state.publicHash) return null;
  if (!new RegExp(`/${state.publicHash}/rss(/)?$`).test(path)) return null;
  return path.replace(`${state.publicHash}/`, '');
}

/** Paths a private site still serves to everyone: the password form, the icon and the site's own public files. */
export const OPEN_WHEN_PRIVATE = (path: string) => path === '/private/' || path === '/favicon.ico' || path === '/sitemap.xsl' || path.startsWith('/public/');

/** A private site's robots.txt: nothing is to be crawled. */
export const PRIVATE_ROBOTS = 'User-agent: *\nDisallow: /\n';

/** Quire's own markup with the form Ghost's password page has. */
const DEFAULT_PRIVATE_PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>{{site.title}}</title>
    <meta name="robots" content="noindex">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="canonical" href="{{site.url}}">
    {{#if site.description}}<meta name="description" content="{{site.description}}">{{/if}}
    <link rel="stylesheet" href="{{basePath}}public/ghost.min.css?v={{assetHash}}"/>
  </head>
  <body>
    <main class="gh-main" role="main">
      <section class="gh-flow-content private">
        {{#if site.icon}}<img class="site-icon" src="{{site.icon}}" alt="">{{/if}}
        <h1>This site is private.</h1>
        <form class="gh-signin" method="post" novalidate="novalidate">
          <div class="form-group{{#if error}} error{{/if}}">
            <input class="gh-input" type="password" name="password" autofocus="autofocus" placeholder="Password" aria-label="Password" />
            {{#if error}}<p class="main-error">{{error.message}}</p>{{/if}}
          </div>
          <button class="gh-btn" type="submit"><span>Access site &rarr;</span></button>
        </form>
      </section>
    </main>
  </body>
</html>
`;

/** The password page for themes without `private.hbs`. */
export const renderDefaultPrivatePage = lazyTemplate(DEFAULT_PRIVATE_PAGE);
