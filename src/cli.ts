#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from './config.js';
import { runSetup } from './cli-setup.js';

const USAGE = `usage: quire setup [--name NAME] [--email EMAIL] [--password PASSWORD] [--title TITLE] [--integration NAME]

Creates the owner on a fresh site (skipped when the site is already set up) and a custom integration,
then prints its keys as ADMIN_KEY=… and CONTENT_KEY=… lines. Uses the same settings as the server
(DATABASE_URL, CONTENT_DIR, SITE_URL, …). Without --password a random one is made and printed.`;

async function run() {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'setup') {
    console.error(USAGE);
    process.exit(command === undefined || command === '--help' ? 0 : 2);
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string', default: 'Site Owner' },
      email: { type: 'string', default: 'owner@example.com' },
      password: { type: 'string' },
      title: { type: 'string', default: 'Quire' },
      integration: { type: 'string', default: 'Command line' },
    },
  });
  for (const line of await runSetup(loadConfig(), values)) console.log(line);
}

run().catch((err) => {
  if (err instanceof ConfigError) console.error(`quire: configuration error: ${err.message}`);
  else console.error(`quire: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
