#!/usr/bin/env node
import type { ParseArgsConfig } from 'node:util';
import { loadConfig, ConfigError } from './config.js';
import { runSetup, SetupConflict, SETUP_DEFAULTS } from './cli-setup.js';
import { runBackup, runExport, runImport } from './cli-db.js';
import { ServerBackupAdvice } from './db/backup.js';
import { UsageError, parseCommandLine, type CommandSpec } from './cli-args.js';
import { ADMIN_COMMAND, runAdmin } from './cli-admin.js';

const SETTINGS = 'Every command uses the same settings as the server (DATABASE_URL, CONTENT_DIR, SITE_URL, …).';

const fileOption = { file: { type: 'string' } } satisfies ParseArgsConfig['options'];

const COMMANDS: Record<string, CommandSpec> = {
  setup: {
    usage: 'quire setup [--email EMAIL] [--password PASSWORD] [--name NAME] [--title TITLE] [--integration NAME]',
    summary: 'set up the site and print API keys',
    help: `Creates the owner on a fresh site, then a custom integration, and prints KEY=value lines (stdout) for
scripts and .env files: OWNER_EMAIL, OWNER_PASSWORD (only when a random one was made), ADMIN_KEY, CONTENT_KEY,
ADMIN_API_URL and CONTENT_API_URL (the url both Ghost SDKs take). What it did goes to stderr.

Run again, it changes nothing about the owner and prints the keys of the integration of the same name (made
when missing); an --email other than the owner's is refused.

  --email EMAIL        the owner's e-mail (${SETUP_DEFAULTS.email})
  --password PASSWORD  the owner's password, 10 characters or more (a random one is made and printed)
  --name NAME          the owner's name (${SETUP_DEFAULTS.name})
  --title TITLE        the site's title (${SETUP_DEFAULTS.title})
  --integration NAME   the integration whose keys are printed (${SETUP_DEFAULTS.integration})`,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      title: { type: 'string' },
      integration: { type: 'string' },
    },
  },
  export: {
    usage: 'quire export --file FILE',
    summary: 'write the site, members included, as a Ghost JSON export (.json) or archive (.zip)',
    help:
      'Writes what GET /ghost/api/admin/db/ answers, with members, to FILE (written beside it, then renamed). A FILE\n' +
      "ending in .zip gets Ghost 6's archive: export.json, routes.yaml, the redirects file and the uploaded themes.",
    options: fileOption,
    required: ['file'],
  },
  import: {
    usage: 'quire import --file FILE',
    summary: 'import a Ghost export (.json, or .zip: an archive, or images)',
    help: 'Imports FILE as POST /ghost/api/admin/db/ does, in one transaction, and prints what was imported and skipped.',
    options: fileOption,
    required: ['file'],
  },
  backup: {
    usage: 'quire backup --file FILE',
    summary: 'copy the SQLite database while the service runs',
    help: "Copies the whole SQLite database to FILE with SQLite's online backup; for PostgreSQL and MySQL/MariaDB it\nprints the pg_dump / mysqldump command to use instead.",
    options: fileOption,
    required: ['file'],
  },
  admin: ADMIN_COMMAND,
};

const OVERVIEW = `usage: quire <command> [options]

${Object.entries(COMMANDS)
  .map(([name, spec]) => `  ${name.padEnd(8)}${spec.summary}`)
  .join('\n')}

quire <command> --help shows a command's options. ${SETTINGS}
The server itself is \`npm start\` (node dist/main.mjs).`;

async function run(argv: string[]): Promise<void> {
  const parsed = parseCommandLine(argv, COMMANDS, OVERVIEW);
  if (parsed.kind === 'help') {
    console.log(parsed.text);
    return;
  }
  const { command, values } = parsed;
  // `admin fetch` reads its own configuration: during `npm install` a bad setting must not fail the install.
  if (command === 'admin') {
    for (const line of await runAdmin([...parsed.args])) console.log(line);
    return;
  }
  const config = loadConfig();
  if (command === 'setup') {
    const result = await runSetup(config, values);
    for (const note of result.notes) console.error(`quire: ${note}`);
    for (const line of result.values) console.log(line);
    return;
  }
  const file = values.file!;
  const lines = command === 'export' ? await runExport(config, file) : command === 'import' ? await runImport(config, file) : await runBackup(config, file);
  for (const line of lines) console.log(line);
}

run(process.argv.slice(2)).catch((err: unknown) => {
  // Usage mistakes exit 2 (as getopt-style tools do); everything else that stops a command, 1.
  if (err instanceof UsageError) {
    console.error(err.message);
    console.error(err.hint);
    process.exit(2);
  }
  if (err instanceof ConfigError) console.error(`quire: configuration error: ${err.message}`);
  else if (err instanceof ServerBackupAdvice) console.error(err.message);
  else if (err instanceof SetupConflict) console.error(`quire setup: ${err.message}`);
  else console.error(`quire: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
