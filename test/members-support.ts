import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { parseMail, type ReceivedMail } from './staff-support.js';

/** A real SMTP server on loopback catching what the app sends; `port` once `start()` resolved. */
export class MailCatcher {
  readonly received: (ReceivedMail & { html: string; rawSubject: string })[] = [];
  #waiters: (() => void)[] = [];
  readonly #server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _session, done) => {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const mail = parseMail(raw);
        this.received.push({ ...mail, subject: decodeWords(mail.subject), rawSubject: mail.subject, html: htmlPart(raw) });
        for (const wake of this.#waiters) wake();
        this.#waiters = [];
        done();
      });
    },
  });

  start(): Promise<void> {
    return new Promise((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
  }
  stop(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
  get port(): number {
    return (this.#server.server.address() as AddressInfo).port;
  }
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The first mail to `email` after the `after`-th one received. */
  async next(email: string, after: number) {
    for (let i = 0; i < 100; i++) {
      const mail = this.received.slice(after).find((m) => m.to.toLowerCase().includes(email.toLowerCase()));
      if (mail) return mail;
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    throw new Error(`no mail to ${email}`);
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) as text. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function htmlPart(raw: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(raw)?.[1];
  if (!boundary) return '';
  for (const part of raw.split(`--${boundary}`)) {
    const at = part.search(/\r?\n\r?\n/);
    const head = part.slice(0, at);
    if (!/content-type:\s*text\/html/i.test(head)) continue;
    const body = part.slice(at).replace(/^\r?\n\r?\n/, '');
    if (/quoted-printable/i.test(head)) {
      return Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    }
    if (/base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    return body;
  }
  return '';
}

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
