import type { Config } from './config.js';
import type { Connection } from './db/connect.js';
import { siteOf, type CtxBase } from './ctx.js';
import { systemClock } from './clock.js';
import { createMailer, type MailLog } from './mail/mailer.js';
import { resolveSecretsKey, secretBox } from './auth/secret-box.js';
import { storageFor } from './storage/from-config.js';

/** Parts of the process-wide ctx a caller may supply instead of the configured ones (tests do). */
export type CtxBaseParts = { [K in 'clock' | 'mailer' | 'secrets' | 'storage']?: CtxBase[K] | undefined };

/**
 * What every ctx of this process shares, from the configuration: one definition for the server
 * (`buildApp`) and the CLI. Mail goes over SMTP or to `CONTENT_DIR/mail/`; secrets are sealed with
 * `SECRETS_KEY` or the key file; files go where `storage/from-config.ts` says.
 */
export function ctxBaseFromConfig(config: Config, connection: Connection, log: MailLog, given: CtxBaseParts = {}): CtxBase {
  return {
    db: connection.db,
    engine: connection.engine,
    site: siteOf(config.siteUrl),
    clock: given.clock ?? systemClock,
    mailer: given.mailer ?? createMailer(config, log),
    secrets: given.secrets ?? secretBox(resolveSecretsKey(config).key),
    storage: given.storage ?? storageFor(config),
  };
}
