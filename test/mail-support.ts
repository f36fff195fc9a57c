import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the tests read it: decoded subject, text/plain and text/html parts, and the headers as sent. */
export interface ReceivedMail {
  /** The envelope recipient when an SMTP server received it; the To header when read from a file. */
  to: string;
  subject: string;
  replyTo: string | null;
  /** Header values as written (unfolded), by lower-case name. */
  headers: Map<string, string>;
  text: string;
  html: string;
  raw: string;
}

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  value === undefined
    ? undefined
    : [value]
        .flat()
        .map((list) => list.text)
        .join(', ');

/** Parses an RFC 822 message with mailparser (transfer encodings, charsets and RFC 2047 words decoded). */
export async function parseMail(raw: string): Promise<ReceivedMail> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  const headers = new Map<string, string>();
  for (const { key, line } of mail.headerLines)
    headers.set(
      key,
      line
        .slice(line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    );
  return {
    to: addresses(mail.to) ?? '',
    subject: mail.subject ?? '',
    replyTo: addresses(mail.replyTo) ?? null,
    headers,
    text: mail.text ?? '',
    html: mail.html || '',
    raw,
  };
}

export interface SinkOptions {
  /** An SMTP reply code for a recipient (451: try later, 550: refused), or undefined to accept. Called per attempt. */
  refuse?: (address: string) => number | undefined;
  /** Milliseconds before each message is accepted (a slow provider). */
  delayMs?: number;
}

/** A real SMTP server on loopback that keeps what it received: one entry per envelope recipient, in arrival order. */
export class MailSink {
  readonly received: ReceivedMail[] = [];
  readonly attempts = new Map<string, number>();
  #waiters: (() => void)[] = [];
  // Parsing is asynchronous; chaining it keeps `received` in the order the messages arrived.
  #parsed: Promise<void> = Promise.resolve();
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
          const raw = Buffer.concat(chunks).toString('utf8');
          const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
          const accept = () => {
            this.#parsed = this.#parsed
              .then(async () => {
                const mail = await parseMail(raw);
                for (const to of recipients) this.received.push({ ...mail, to });
                for (const wake of this.#waiters) wake();
                this.#waiters = [];
              })
              .then(
                () => done(),
                (error: Error) => done(error),
              );
          };
          if (this.options.delayMs) setTimeout(accept, this.options.delayMs);
          else accept();
        });
      },
    });
  }

  async start(): Promise<string> {
    // A client killed in the middle of a message resets its connection: expected in the crash tests.
    this.#server.on('error', () => undefined);
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  get port(): number {
    return (this.#server.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** How many copies each address received. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const mail of this.received) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
    return counts;
  }

  /** The first mail to `email` after the `after`-th one received. */
  async next(email: string, after = 0, tries = 100): Promise<ReceivedMail> {
    for (let i = 0; i < tries; i++) {
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
