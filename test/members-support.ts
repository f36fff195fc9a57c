import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { MailSink } from './mail-support.js';

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

/**
 * Asks for a magic link (`payload`: `email`, `emailType`, …) from `remoteAddress`, then opens the link `mail`
 * receives as a browser does: both answers (the opened link's sets the member's cookies).
 */
export async function followMagicLink(
  app: FastifyInstance,
  mail: MailSink,
  payload: { email: string; emailType: string; name?: string },
  remoteAddress: string,
) {
  const before = mail.received.length;
  const sent = await app.inject({ method: 'POST', url: `${MEMBERS}/send-magic-link/`, remoteAddress, payload });
  const opened = await openLink(app, linkIn(await mail.next(payload.email, before)));
  return { sent, opened };
}
