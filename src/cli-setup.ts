import { randomBytes } from 'node:crypto';
import type { Config } from './config.js';
import { connect } from './db/connect.js';
import { jobCtx } from './ctx.js';
import { ctxBaseFromConfig } from './ctx-base.js';
import { migrateToLatest } from './db/migrate.js';
import { applySetup, isSetup } from './resources/setup/setup.service.js';
import { addIntegration } from './resources/integrations/integrations.service.js';
import { apiKeysOf } from './resources/integrations/integrations.queries.js';
import { presentApiKey } from './resources/integrations/integrations.present.js';

export interface SetupOptions {
  name: string;
  email: string;
  password?: string;
  title: string;
  integration: string;
}

/**
 * `quire setup`: the owner on a fresh site (skipped once the site is set up), then a custom integration.
 * Returns `KEY=value` lines for scripts: the owner's e-mail (and password when one was generated), the
 * admin and content keys, the site URL.
 */
export async function runSetup(config: Config, options: SetupOptions): Promise<string[]> {
  const connection = connect(config.databaseUrl, { poolSize: 1, statementTimeoutMs: 0 }); // an operator's command: no statement timeout
  const lines: string[] = [];
  try {
    await migrateToLatest(connection);
    const { db } = connection;
    const log = (details: object, message: string) => console.error(`quire: ${message}`, details);
    const ctx = jobCtx(ctxBaseFromConfig(config, connection, { info: log, error: log }));
    if (!(await isSetup(db))) {
      const password = options.password ?? randomBytes(12).toString('base64url');
      await applySetup(ctx, { name: options.name, email: options.email, password, blogTitle: options.title }, true);
      lines.push(`OWNER_EMAIL=${options.email}`);
      if (!options.password) lines.push(`OWNER_PASSWORD=${password}`);
    }
    const integration = await addIntegration(ctx, { name: options.integration });
    const keys = (await apiKeysOf(db, [integration.id])).get(integration.id) ?? [];
    for (const type of ['admin', 'content'] as const) {
      for (const key of keys.filter((k) => k.type === type)) lines.push(`${type.toUpperCase()}_KEY=${presentApiKey(key).secret}`);
    }
    lines.push(`ADMIN_API_URL=${config.siteUrl}`);
    // Where a person signs in: Ghost's admin app, when this server serves it.
    if (config.adminApp.enabled) lines.push(`ADMIN_URL=${config.siteUrl}ghost/`);
    return lines;
  } finally {
    await connection.close();
  }
}
