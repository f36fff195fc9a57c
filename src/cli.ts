#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from './config.js';
import { runSetup } from './cli-setup.js';
import { runBackup, runExport, runImport } from './cli-db.js';
import { ServerBackupAdvice } from './db/backup.js';
import { ADMIN_USAGE, UsageError, runAdmin } from './cli-admin.js';

const USAGE = `usage: quire setup [--name NAME] [--email EMAIL] [--password PASSWORD] [--title TITLE] [--integration NAME]
       quire export --file FILE
       quire import --file FILE
       quire backup --file FILE
       ${ADMIN_USAGE.split('\n')[0]}

setup   Creates the owner on a fresh site (skipped when the site is already set up) and a custom integration,
        then prints its keys as ADMIN_KEY=… and CONTENT_KEY=… lines. Without --password a random one is made
        and printed.
export  Writes the site as a Ghost JSON export (what GET /db/ answers, with members) to FILE.
import  Imports a Ghost export (.json, or .zip with images) from FILE, as POST /db/ does, in one transaction.
backup  Copies the whole SQLite database to FILE while the service runs (SQLite's online backup); for
        PostgreSQL and MySQL/MariaDB prints the pg_dump / mysqldump command to use.

${ADMIN_USAGE.split('\n').slice(2).join('\n')}

Every command uses the same settings as the server (DATABASE_URL, CONTENT_DIR, SITE_URL, …).`;

const DB_COMMANDS = { export: runExport, import: runImport, backup: runBackup };

async function run() {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'admin') {
    for (const line of await runAdmin(rest)) console.log(line);
    return;
  }
  if (command === 'export' || command === 'import' || command === 'backup') {
    const { values } = parseArgs({ args: rest, options: { file: { type: 'string' } } });
    if (!values.file) {
      console.error(USAGE);
      process.exit(2);
    }
    for (const line of await DB_COMMANDS[command](loadConfig(), values.file)) console.log(line);
    return;
  }
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
  else if (err instanceof UsageError) {
    console.error(USAGE);
    process.exit(2);
  } else if (err instanceof ServerBackupAdvice) console.error(err.message);
  else console.error(`quire: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
