import type { RouteOptions } from 'fastify';

/**
 * How large a request body may be, decided per route and enforced by Fastify before the body is parsed
 * (from Content-Length at once, or as a chunked body arrives): beyond it the answer is Ghost's 413
 * (render-error.ts). The README's configuration section lists them.
 */

/** Admin API JSON bodies: Ghost's body-parser limit (a post with its lexical, html and mobiledoc). */
export const ADMIN_BODY_LIMIT = 50 * 1024 * 1024;

/**
 * Routes anyone may call without credentials (log in, setup, password reset, invitations) and everything
 * outside the Admin API take small bodies: nobody gets to make the server parse 50 MB anonymously.
 */
export const PUBLIC_BODY_LIMIT = 100 * 1024;

/** An `onRoute` hook for the Admin API's routes. */
export function adminBodyLimit(route: RouteOptions): void {
  const config = route.config as { auth?: string } | undefined;
  route.bodyLimit ??= config?.auth === 'public' ? PUBLIC_BODY_LIMIT : ADMIN_BODY_LIMIT;
}
