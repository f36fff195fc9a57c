import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** The magic link in a mail's text. */
export const linkIn = (mail: { text: string }) => /(http:\/\/\S+\/members\/\?token=\S+)/.exec(mail.text)![1]!;

/** `name=value` pairs of a response's Set-Cookie headers, as a browser sends them back. */
export function cookiesOf(res: LightMyRequestResponse): string {
  return res.cookies
    .filter((c) => c.value !== '')
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
}

export const MEMBERS = '/members/api';

/** Opens a magic link (path and query of `url`) as a browser does. */
export function openLink(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const u = new URL(url);
  return app.inject({ method: 'GET', url: `${u.pathname}${u.search}`, headers });
}
