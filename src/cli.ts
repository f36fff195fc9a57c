#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { loadConfig, ConfigError } from './config.js';
import { connect } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { OWNER_USER_ID } from './auth/roles.js';
import { applySetup, isSetup } from './resources/setup/setup.service.js';
import { addIntegration } from './resources/integrations/integrations.service.js';
import { apiKeysOf } from './resources/integrations/integrations.queries.js';
import { presentApiKey } from './resources/integrations/integrations.present.js';

const USAGE = `usage: quire setup [--name NAME] [--email EMAIL] [--password PASSWORD] [--title TITLE] [--integration NAME]

Creates the owner on a fresh site (skipped when the site is already set up) and a custom integration,
then prints its keys as ADMIN_KEY=… and CONTENT_KEY=… lines. Uses the same settings as the server
(DATABASE_URL, CONTENT_DIR, SITE_URL, …). Without --password a random one is made and printed.`;

async function setup(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: 'string', default: 'Site Owner' },
      email: { type: 'string', default: 'owner@example.com' },
      password: { type: 'string' },
      title: { type: 'string', default: 'Quire' },
      integration: { type: 'string', default: 'Command line' },
    },
  });
  const config = loadConfig();
  const connection = connect(config.databaseUrl, { poolSize: 1 });
  try {
    await migrateToLatest(connection);
    const { db } = connection;
    if (!(await isSetup(db))) {
      const password = values.password ?? randomBytes(12).toString('base64url');
      await applySetup(db, { name: values.name, email: values.email, password, blogTitle: values.title }, config.siteUrl, true);
      console.log(`OWNER_EMAIL=${values.email}`);
      if (!values.password) console.log(`OWNER_PASSWORD=${password}`);
    }
    const integration = await addIntegration(db, { name: values.integration }, OWNER_USER_ID);
    for (const key of (await apiKeysOf(db, [integration.id])).get(integration.id) ?? []) {
      console.log(`${key.type === 'admin' ? 'ADMIN_KEY' : 'CONTENT_KEY'}=${presentApiKey(key).secret}`);
    }
    console.log(`ADMIN_API_URL=${config.siteUrl}`);
  } finally {
    await connection.close();
  }
}

async function run() {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'setup') {
    console.error(USAGE);
    process.exit(command === undefined || command === '--help' ? 0 : 2);
  }
  await setup(rest);
}

run().catch((err) => {
  if (err instanceof ConfigError) console.error(`quire: configuration error: ${err.message}`);
  else console.error(`quire: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
