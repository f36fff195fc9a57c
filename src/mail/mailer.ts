import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.js';
import { objectId } from '../db/ids.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** Display name of the sender, normally the site title. */
  fromName?: string;
  /** The sender's address when it is not the mailer's own (a newsletter's sender address). */
  fromAddress?: string;
}

/** What the mailer logs through: Fastify's logger in the server, the console in the CLI. */
export interface MailLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface Mailer {
  /** The address mail is sent from (`MAIL_FROM`, or `noreply@<site host>`); the settings API shows it. */
  readonly fromAddress: string;
  /** Delivers one message; rejects when the SMTP server (or the disk) refuses it. */
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP through nodemailer when `MAIL_SMTP_URL` is set. Without it each message is written, as a complete
 * `.eml` file, to `<CONTENT_DIR>/mail/` and logged, so a fresh install can still read its sign-in codes
 * and invitation links.
 */
/** nodemailer is loaded with the first mail, not at start-up (it is a good part of the start-up time). */
function lazyTransport(options: Parameters<typeof import('nodemailer').createTransport>[0]): () => Promise<Transporter> {
  let transport: Promise<Transporter> | null = null;
  return () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options)));
}

export function createMailer(config: Config, log: MailLog): Mailer {
  const address = config.mail.from ?? `noreply@${new URL(config.siteUrl).hostname.replace(/^www\./, '')}`;
  const from = (name?: string, own = address) => (name ? { name, address: own } : own);
  const message = (mail: Mail) => ({
    from: from(mail.fromName, mail.fromAddress),
    to: mail.to,
    replyTo: mail.replyTo,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });

  if (config.mail.smtpUrl) {
    const transport = lazyTransport(config.mail.smtpUrl);
    return {
      fromAddress: address,
      async send(mail) {
        try {
          await (await transport()).sendMail(message(mail));
        } catch (err) {
          log.error({ err, mail: { to: mail.to } }, 'mail could not be sent');
          throw err;
        }
        // Subjects can carry sign-in codes: only the file fallback, meant for reading them, logs them.
        log.info({ mail: { to: mail.to } }, 'mail sent');
      },
    };
  }

  // On local disk, not through storage: these files are for someone at this machine to read (a fresh install
  // without SMTP), and they hold sign-in codes and invitation links. On shared object storage they would be
  // readable by whoever can list the bucket, and outlive their use; several instances need SMTP anyway.
  const outbox = path.join(config.contentDir, 'mail');
  const render = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    fromAddress: address,
    async send(mail) {
      const info = await (await render()).sendMail(message(mail));
      // Mails hold sign-in codes and reset links: the folder is this user's only (700), each file 600.
      await mkdir(config.contentDir, { recursive: true });
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${objectId()}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ mail: { to: mail.to, subject: mail.subject, file } }, 'mail written to file (MAIL_SMTP_URL is not set)');
    },
  };
}
