import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { decodePart } from './staff-support.js';

/** One newsletter copy as the SMTP server received it. */
export interface Delivered {
  /** The envelope recipient. */
  to: string;
  subject: string;
  headers: Map<string, string>;
  text: string;
  html: string;
}

function headersOf(head: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) map.set(line.slice(0, at).toLowerCase(), line.slice(at + 1).trim());
  }
  return map;
}

const split = (raw: string) => {
  const at = raw.search(/\r?\n\r?\n/);
  return { head: raw.slice(0, at), body: raw.slice(at).replace(/^\r?\n\r?\n/, '') };
};

export function parseDelivered(to: string, raw: string): Delivered {
  const { head, body } = split(raw);
  const headers = headersOf(head);
  let text = '';
  let html = '';
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  const parts = boundary ? body.split(`--${boundary}`) : [raw];
  for (const part of parts) {
    const { head: partHead, body: partBody } = split(part);
    const partHeaders = headersOf(partHead);
    const type = partHeaders.get('content-type') ?? '';
    if (/text\/plain/i.test(type)) text = decodePart(partBody, partHeaders.get('content-transfer-encoding'));
    if (/text\/html/i.test(type)) html = decodePart(partBody, partHeaders.get('content-transfer-encoding'));
  }
  const subject = headers.get('subject') ?? '';
  return { to, subject, headers, text, html };
}

export interface SinkOptions {
  /** An SMTP reply code for a recipient (451: try later, 550: refused), or undefined to accept. Called per attempt. */
  refuse?: (address: string) => number | undefined;
  /** Milliseconds before each message is accepted (a slow provider). */
  delayMs?: number;
}

/** A real SMTP server on loopback that keeps what it received. */
export class MailSink {
  readonly received: Delivered[] = [];
  readonly attempts = new Map<string, number>();
  #server: SMTPServer;

  constructor(private readonly options: SinkOptions = {}) {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      size: 10 * 1024 * 1024,
      onRcptTo: (address, _session, callback) => {
        const email = address.address.toLowerCase();
        this.attempts.set(email, (this.attempts.get(email) ?? 0) + 1);
        const code = this.options.refuse?.(email);
        if (code) return callback(Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code }));
        callback();
      },
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const finish = () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            for (const rcpt of session.envelope.rcptTo) this.received.push(parseDelivered(rcpt.address.toLowerCase(), raw));
            done();
          };
          if (this.options.delayMs) setTimeout(finish, this.options.delayMs);
          else finish();
        });
      },
    });
  }

  async start(): Promise<string> {
    // A client killed in the middle of a message resets its connection: expected in the crash tests.
    this.#server.on('error', () => undefined);
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.#server.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** How many copies each address received. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const mail of this.received) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
    return counts;
  }
}

/** Polls `check` until it returns a value that is not undefined/false, or fails after `ms`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, ms = 30_000, what = 'the condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
