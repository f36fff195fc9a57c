import type { Transporter } from 'nodemailer';
import type { Config } from '../config.js';

/** One newsletter copy, addressed to one member. */
export interface BulkMessage {
  from: string;
  replyTo: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
}

/** How the SMTP server answered a copy it did not take: `temporary` (4xx, no answer) may pass later, `permanent` (5xx) will not. */
export class SendRefusal extends Error {
  override name = 'SendRefusal';
  constructor(
    message: string,
    readonly code: number,
    readonly enhancedCode: string | null,
    readonly severity: 'temporary' | 'permanent',
  ) {
    super(message);
  }
}

export interface BulkSender {
  /** Copies the pool sends at once; callers keep at most about this many in flight. */
  readonly concurrency: number;
  /** Resolves once the server accepted the copy; rejects with a `SendRefusal`. */
  send(message: BulkMessage): Promise<void>;
  close(): void;
}

/** What an SMTP or network error says about the copy: its reply code and whether trying later may help. */
export function refusalOf(err: unknown): SendRefusal {
  const e = err as { responseCode?: number; response?: string; message?: string; code?: string };
  const text = (e.response ?? e.message ?? String(err)).slice(0, 2000);
  const enhanced = /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(text)?.[1] ?? null;
  const code = typeof e.responseCode === 'number' ? e.responseCode : 0;
  // No reply at all (connection refused or dropped, a timeout) is worth another try, like a 4xx.
  const severity = code >= 500 ? 'permanent' : 'temporary';
  return new SendRefusal(text, code, enhanced, severity);
}

/**
 * Pooled SMTP for newsletters: `NEWSLETTER_SMTP_URL` (a bulk provider: SES, Postmark, Mailgun's SMTP, a
 * Postfix relay), else `MAIL_SMTP_URL`; null when neither is set. The pool keeps `NEWSLETTER_CONNECTIONS`
 * connections open across batches, and `NEWSLETTER_RATE` caps the copies per second this instance sends.
 */
export function createBulkSender(config: Config): BulkSender | null {
  const url = config.newsletter.smtpUrl ?? config.mail.smtpUrl;
  if (!url) return null;
  const { connections, ratePerSecond } = config.newsletter;
  let transport: Promise<Transporter> | null = null;
  // nodemailer is loaded with the first newsletter, not at start-up.
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url,
        pool: true,
        maxConnections: connections,
        maxMessages: 10_000,
        ...(ratePerSecond > 0 ? { rateDelta: 1000, rateLimit: ratePerSecond } : {}),
        connectionTimeout: 30_000,
        greetingTimeout: 30_000,
        socketTimeout: 60_000,
      } as Parameters<typeof nodemailer.createTransport>[0]),
    ));
  return {
    concurrency: connections,
    async send(message) {
      const transporter = await open();
      try {
        await transporter.sendMail({
          from: message.from,
          to: message.to,
          replyTo: message.replyTo ?? undefined,
          subject: message.subject,
          html: message.html,
          text: message.text,
          headers: message.headers,
        });
      } catch (err) {
        throw refusalOf(err);
      }
    },
    close() {
      void transport?.then((t) => t.close());
      transport = null;
    },
  };
}
