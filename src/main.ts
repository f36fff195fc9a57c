// First: loading it limits the heap's growth before anything else is loaded.
import { compactWhenQuiet, growYoungGenerationUpTo } from './heap.js';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { loadConfig, ConfigError, type Config } from './config.js';
import { connect, type Connection } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { DatabaseUnreachableError, assertReachable, displayDatabaseUrl } from './db/reachability.js';
import { buildApp } from './app.js';
import { warmRenderersOffThread } from './content/off-thread.js';
import { resolveSecretsKey, secretBox } from './auth/secret-box.js';
import { sealStoredSecrets } from './auth/authenticator.js';
import { checkSecretsKey } from './auth/secrets-key-check.js';
import { SESSION_COOKIE } from './auth/sessions.js';
import { configureWorkerPool, stopWorkerPool } from './workers/pool.js';
import { loggerOptions } from './http/logging.js';
import type { Metrics } from './http/metrics.js';
import type { Readiness } from './http/health.js';
import { sweepTemporaryFolders } from './http/upload.js';

const RENDERER_WARM_DELAY_MS = 2000;

/** A request of an editor's (who may save a post soon): the Admin API with a session or a key, or a write there. */
function isStaffRequest(request: IncomingMessage): boolean {
  if (!request.url?.includes('/api/admin/')) return false;
  return request.method !== 'GET' || request.headers.authorization !== undefined || (request.headers.cookie ?? '').includes(SESSION_COOKIE);
}

/** A start-up failure the operator can fix; its message is the one line printed. */
class StartupError extends Error {}

/**
 * Work that runs beside the HTTP server (the job runner, when it starts here) adds how to stop it: shutdown
 * calls each stop while requests drain and waits for it within the same grace period, so a runner can finish
 * or release its leases before the database closes.
 */
const background: (() => Promise<void>)[] = [];

async function listen(what: string, start: () => Promise<unknown>, names: string): Promise<void> {
  try {
    await start();
  } catch (err) {
    const code = (err as { code?: string }).code;
    const reason =
      code === 'EADDRINUSE'
        ? 'the port is already in use (another Quire, Ghost or other server?)'
        : code === 'EACCES'
          ? 'permission denied (ports below 1024 need privileges)'
          : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
            ? 'no such address on this machine'
            : (err as Error).message;
    throw new StartupError(`cannot listen on ${what}: ${reason}; change ${names}`, { cause: err });
  }
}

/** The kernel's cap on every listen backlog (Linux's `net.core.somaxconn`); null where it cannot be read. */
function kernelBacklogCap(): number | null {
  try {
    return Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8').trim()) || null;
  } catch {
    return null;
  }
}

async function migrate(connection: Connection, config: Config): Promise<void> {
  await assertReachable(connection, config.databaseUrl);
  try {
    await migrateToLatest(connection);
  } catch (err) {
    throw new StartupError(`database ${displayDatabaseUrl(config.databaseUrl)}: ${(err as Error).message.split('\n')[0]}`, { cause: err });
  }
}

const SERVER_USAGE = `usage: node dist/main.mjs   (what \`npm start\` runs)

Serves the Admin and Content APIs. It takes no arguments: its settings come from environment variables or
config.json (PORT, HOST, SITE_URL, DATABASE_URL, CONTENT_DIR, …; see the README's Configuration). The operator
commands (setup, export, import, backup) are \`node dist/cli.mjs --help\` (\`npm run setup\` runs setup).`;

/**
 * The server takes no arguments. `--help` prints what it does; anything else is refused with exit code 2 rather
 * than ignored, so `node dist/main.mjs --port 3000` does not serve on the default port instead.
 */
function checkArguments(args: readonly string[]): void {
  if (args.length === 0) return;
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    console.log(SERVER_USAGE);
    process.exit(0);
  }
  console.error(`quire: the server takes no arguments (given: ${args.map((arg) => `'${arg}'`).join(' ')}); settings come from environment variables`);
  console.error(SERVER_USAGE);
  process.exit(2);
}

async function main() {
  checkArguments(process.argv.slice(2));
  const config = loadConfig();
  // The bundle's sibling: dist/main.mjs runs dist/worker.mjs.
  // Set once the app exists; a task past its deadline before then is told on stderr.
  let log: FastifyInstance['log'] | undefined = undefined;
  configureWorkerPool({
    threads: config.workerThreads,
    file: new URL('./worker.mjs', import.meta.url),
    taskTimeoutMs: config.workerTaskTimeoutMs,
    onDeadline: (task, ms) => log?.error({ task, timeoutMs: ms }, 'a worker task ran past WORKER_TASK_TIMEOUT_MS: it failed and its thread was ended'),
  });
  // Set once the app exists; a connection lost before then has nobody to tell but the start-up error.
  let app: FastifyInstance | undefined = undefined;
  const connection = connect(config.databaseUrl, {
    ...config.db,
    onConnectionLost: (err) => (app ? app.log.warn({ err }, 'database connection lost; the work on it failed and the pool replaces it') : undefined),
    onAvailability: (down, reason) =>
      down
        ? app?.log.error({ reason }, 'the database is unreachable: requests that need it answer 503 and /_quire/ready 503 until it is back')
        : app?.log.info('the database answers again'),
  });
  // Migrations on a connection of their own without a statement timeout: an index built on a large table may
  // rightly take longer than any request's statement should.
  const migrations = connect(config.databaseUrl, { ...config.db, statementTimeoutMs: 0 });
  try {
    await migrate(migrations, config);
  } finally {
    await migrations.close();
  }
  const secretsKey = resolveSecretsKey(config);
  const secrets = secretBox(secretsKey.key);
  // prom-client is loaded only when metrics are served (METRICS_PORT).
  const metricsModule = config.metricsPort === null ? undefined : await import('./http/metrics.js');
  const metrics: Metrics | undefined = metricsModule?.createMetrics(connection.db);
  const readiness: Readiness = { accepting: true };
  const format = config.logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json');
  app = await buildApp({
    config,
    connection,
    logger: loggerOptions({ level: config.logLevel, format }),
    secrets,
    metrics,
    readiness,
    runJobs: config.jobs.enabled,
  });
  log = app.log;
  // Said at every start: instances with their own CONTENT_DIR would each make a key and fail to open the
  // secrets another one sealed.
  if (secretsKey.file)
    app.log.info(
      { file: secretsKey.file },
      'SECRETS_KEY is not set: secrets are sealed with the key in this file; give every instance the same SECRETS_KEY unless they share CONTENT_DIR',
    );
  if ((await checkSecretsKey(connection.db, secrets, new Date())) === 'changed')
    app.log.error(
      'the secrets key differs from the one the previous start on this database used: if an instance with that key still runs, authenticator-app codes sealed by one instance fail on the other; give every instance the same SECRETS_KEY (after changing the key on purpose, this is said once)',
    );
  const swept = await sweepTemporaryFolders();
  if (swept > 0) app.log.info({ swept }, 'removed temporary upload folders left by a process that ended without removing them');
  const sealed = await sealStoredSecrets(connection.db, secrets);
  if (sealed > 0) app.log.info({ sealed }, 'sealed authenticator secrets stored before sealing');
  const backlog = config.listenBacklog;
  await listen(`${config.host}:${config.port}`, () => app.listen({ port: config.port, host: config.host, backlog }), 'PORT or HOST');
  // The kernel lowers a larger backlog without a word; the operator should know the burst it can hold.
  const somaxconn = kernelBacklogCap();
  if (somaxconn !== null && somaxconn < backlog)
    app.log.warn(
      { listenBacklog: backlog, somaxconn },
      'the kernel caps LISTEN_BACKLOG at net.core.somaxconn: in a burst of more new connections, the rest wait seconds for their SYNs to be retried; raise it with sysctl',
    );
  let metricsServer: Server | null = null;
  if (metrics && config.metricsPort !== null) {
    const port = config.metricsPort;
    await listen(
      `${config.metricsHost}:${port} (metrics)`,
      async () => (metricsServer = await metricsModule!.serveMetrics(metrics, port, config.metricsHost)),
      'METRICS_PORT or METRICS_HOST',
    );
  }
  app.log.info({ siteUrl: config.siteUrl, database: displayDatabaseUrl(config.databaseUrl), metricsPort: config.metricsPort }, 'quire is ready');
  growYoungGenerationUpTo();
  compactWhenQuiet(app.server);
  // The renderers' first use costs ~0.5 s (jsdom) on a worker thread, which then holds ~80 MB until a minute
  // without work ends it. A site only being read never needs them, so they are warmed when staff first show up
  // (an Admin API request with a session cookie or a key, or any write there), a moment later, off the request.
  const warmOnStaff = (request: IncomingMessage) => {
    if (!isStaffRequest(request)) return;
    app.server.off('request', warmOnStaff);
    setTimeout(() => {
      warmRenderersOffThread().catch((err: unknown) => app.log.warn({ err }, 'warming the content renderers failed'));
    }, RENDERER_WARM_DELAY_MS).unref();
  };
  app.server.on('request', warmOnStaff);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    shutdown(app, connection, config, readiness, metricsServer, signal).then(
      (clean) => process.exit(clean ? 0 : 1),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/**
 * Stop accepting (readiness turns 503, the listener closes, idle keep-alive connections end), let requests in
 * flight and background work finish within SHUTDOWN_GRACE_MS, then close the worker pool and the database.
 * Resolves false when the grace period ran out and requests were cut off.
 */
async function shutdown(
  app: FastifyInstance,
  connection: Connection,
  config: Config,
  readiness: Readiness,
  metricsServer: Server | null,
  signal: string,
): Promise<boolean> {
  app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: no new connections; finishing requests in flight');
  readiness.accepting = false;
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), config.shutdownGraceMs);
  });
  const drained = Promise.all([app.close(), ...background.map((stopWork) => stopWork())]).then(() => 'drained' as const);
  const outcome = await Promise.race([drained, graceOver]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    app.log.warn({ graceMs: config.shutdownGraceMs }, 'grace period over: closing the connections still open');
    app.server.closeAllConnections();
  }
  await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
  await stopWorkerPool();
  await connection.close();
  app.log.info('stopped');
  return outcome === 'drained';
}

main().catch((err: unknown) => {
  // One line an operator can act on; the stack only for what we did not foresee.
  if (err instanceof ConfigError) console.error(`quire: configuration error: ${err.message}`);
  else if (err instanceof StartupError || err instanceof DatabaseUnreachableError) console.error(`quire: ${err.message}`);
  else console.error('quire: failed to start:', err);
  process.exit(1);
});
