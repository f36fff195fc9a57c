import { parseArgs } from 'node:util';
import { DEFAULT_ADMIN_APP_DIR, loadConfig, type Config } from './config.js';
import { adminBuildState, fetchAdminBuild } from './admin-app/fetch.js';
import { ADMIN_PACKAGE } from './admin-app/pin.js';
import { UsageError, type CommandSpec } from './cli-args.js';

const ADMIN_USAGE = 'usage: quire admin fetch [--force] [--install]';

/** `quire admin`, as the command line lists and describes it. */
export const ADMIN_COMMAND: CommandSpec = {
  usage: 'quire admin fetch [--force] [--install]',
  summary: "fetch Ghost's admin app into ADMIN_APP_DIR (quire admin fetch)",
  help: `admin fetch  Fetches Ghost's admin app (the built client in the ${ADMIN_PACKAGE.name}@${ADMIN_PACKAGE.version} npm package) with npm,
             checks it against the pinned integrity and keeps only the admin build, in ADMIN_APP_DIR
             (vendor/ghost-admin/ by default). Skipped when that version is already there, unless --force.
             --install is what npm install runs: never fails the install (offline, it says how to fetch later).`,
  options: {},
  ownArguments: true,
};

/** `quire admin fetch`: returns the lines to print. */
export async function runAdmin(args: string[]): Promise<string[]> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { force: { type: 'boolean' }, install: { type: 'boolean' } } });
  } catch (err) {
    throw new UsageError(`quire admin: ${err instanceof Error ? err.message : String(err)}`, ADMIN_USAGE);
  }
  const { values, positionals } = parsed;
  if (positionals[0] !== 'fetch' || positionals.length !== 1) {
    throw new UsageError(positionals.length ? `quire admin: unknown sub-command '${positionals.join(' ')}'` : 'quire admin: no sub-command given', ADMIN_USAGE);
  }
  if (!values.install) return fetchInto(loadConfig(), Boolean(values.force));
  // During `npm install` nothing may fail the install: a bad setting or no registry leaves the admin unfetched.
  try {
    const config = loadConfig();
    if (!config.adminApp.enabled) return ['quire: ADMIN_APP=false, the admin app is not fetched'];
    const state = adminBuildState(config.adminApp.dir);
    // A build without our manifest is one the operator put there (ADMIN_APP_DIR): left alone.
    if (state.ready && (state.version === null || config.adminApp.dir !== DEFAULT_ADMIN_APP_DIR) && !values.force) return [];
    return await fetchInto(config, Boolean(values.force));
  } catch (err) {
    return [
      `quire: Ghost's admin app was not fetched (${err instanceof Error ? err.message : String(err)}).`,
      'quire: the server works without it; <SITE_URL>ghost/ says how to fetch it: npm run admin:fetch',
    ];
  }
}

async function fetchInto(config: Config, force: boolean): Promise<string[]> {
  const { dir } = config.adminApp;
  const state = adminBuildState(dir);
  if (!force && state.ready && state.version === ADMIN_PACKAGE.version)
    return [`quire: ${ADMIN_PACKAGE.name}@${ADMIN_PACKAGE.version} admin app already in ${dir}`];
  const started = performance.now();
  const result = await fetchAdminBuild(dir, ADMIN_PACKAGE);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const megabytes = (result.bytes / 1024 / 1024).toFixed(1);
  return [`quire: fetched the ${ADMIN_PACKAGE.name}@${result.version} admin app (${result.files} files, ${megabytes} MB) into ${dir} in ${seconds} s`];
}
