import { randomBytes } from 'node:crypto';
import type { Config } from './config.js';
import { connect } from './db/connect.js';
import { jobCtx } from './ctx.js';
import { ctxBaseFromConfig } from './ctx-base.js';
import { migrateToLatest } from './db/migrate.js';
import { applySetup, isSetup } from './resources/setup/setup.service.js';
import { addIntegration } from './resources/integrations/integrations.service.js';
import { apiKeysOf, integrationNamed } from './resources/integrations/integrations.queries.js';
import { presentApiKey } from './resources/integrations/integrations.present.js';
import { findOwner } from './resources/users/users.queries.js';

/** What `quire setup` was given; the owner's fields are undefined when the option was not given. */
export interface SetupOptions {
  name?: string;
  email?: string;
  password?: string;
  title?: string;
  integration?: string;
}

export const SETUP_DEFAULTS = { name: 'Site Owner', email: 'owner@example.com', title: 'Quire', integration: 'Command line' } as const;

export interface SetupResult {
  /** `KEY=value` lines for scripts and `.env` files (stdout). */
  values: string[];
  /** What was done and what was left as it was, one sentence each (stderr). */
  notes: string[];
}

/** A re-run that asks for something setup will not do; its message is the one line printed. */
export class SetupConflict extends Error {}

/** The site's address as both SDKs take it: they refuse a trailing slash (`new GhostAdminAPI({ url })`). */
export const sdkUrl = (siteUrl: string) => siteUrl.replace(/\/+$/, '');

const given = (options: SetupOptions, keys: (keyof SetupOptions)[]) => keys.filter((key) => options[key] !== undefined).map((key) => `--${key}`);

/**
 * `quire setup`: the owner on a fresh site, then a custom integration (the one of the same name when it
 * exists), and their keys. On a site already set up it changes nothing about the owner, refuses an `--email`
 * that is not the owner's (the user would otherwise sign in with an address that does not exist), and says
 * which options it left unused.
 */
export async function runSetup(config: Config, options: SetupOptions): Promise<SetupResult> {
  const connection = connect(config.databaseUrl, { poolSize: 1, statementTimeoutMs: 0 }); // an operator's command: no statement timeout
  const values: string[] = [];
  const notes: string[] = [];
  try {
    await migrateToLatest(connection);
    const { db } = connection;
    const log = (details: object, message: string) => console.error(`quire: ${message}`, details);
    const ctx = jobCtx(ctxBaseFromConfig(config, connection, { info: log, error: log }));
    if (await isSetup(db)) {
      const owner = (await findOwner(db))!;
      if (options.email !== undefined && options.email.trim().toLowerCase() !== owner.email.toLowerCase()) {
        throw new SetupConflict(
          `the site is already set up and its owner is ${owner.email}, not ${options.email}: nothing was changed. Run setup without --email (or with --email ${owner.email}) to get keys; change the owner's e-mail in the admin app (Settings → Staff).`,
        );
      }
      const unused = given(options, ['name', 'password', 'title']);
      notes.push(`the site was already set up: the owner ${owner.email} was left as it was${unused.length ? ` (${unused.join(', ')} not applied)` : ''}`);
    } else {
      const email = options.email ?? SETUP_DEFAULTS.email;
      const password = options.password ?? randomBytes(12).toString('base64url');
      const title = options.title ?? SETUP_DEFAULTS.title;
      await applySetup(ctx, { name: options.name ?? SETUP_DEFAULTS.name, email, password, blogTitle: title }, true);
      values.push(`OWNER_EMAIL=${email}`);
      if (!options.password) values.push(`OWNER_PASSWORD=${password}`);
      notes.push(`set up the site "${title}" with the owner ${email}${options.password ? '' : ' (a random password, printed below)'}`);
    }
    const name = options.integration ?? SETUP_DEFAULTS.integration;
    const existing = await integrationNamed(db, name);
    const integrationId = existing?.id ?? (await addIntegration(ctx, { name })).id;
    notes.push(existing ? `reused the integration "${name}": its keys are unchanged` : `created the integration "${name}"`);
    const keys = (await apiKeysOf(db, [integrationId])).get(integrationId) ?? [];
    for (const type of ['admin', 'content'] as const) {
      for (const key of keys.filter((k) => k.type === type)) values.push(`${type.toUpperCase()}_KEY=${presentApiKey(key).secret}`);
    }
    values.push(`ADMIN_API_URL=${sdkUrl(config.siteUrl)}`, `CONTENT_API_URL=${sdkUrl(config.siteUrl)}`);
    // Where a person signs in: Ghost's admin app, when this server serves it.
    if (config.adminApp.enabled) values.push(`ADMIN_URL=${config.siteUrl}ghost/`);
    return { values, notes };
  } finally {
    await connection.close();
  }
}
