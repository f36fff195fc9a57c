import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ConfigError,
  parseStorage,
  parseUploadMax,
  parseCount,
  parsePort,
  parseSiteUrl,
  parseDatabaseUrl,
  parseTrustProxy,
  parseSecretsKey,
  parseBoolean,
  parseMail,
  parseJobs,
  parseNewsletter,
  type Source,
} from './config-values.js';
import type { Config } from './config-types.js';

export { ConfigError } from './config-values.js';
export type { AdminAppConfig, Config, DbTimeouts, JobsConfig, MailConfig, MembersConfig, NewsletterConfig, S3Config } from './config-types.js';

/**
 * The folder Quire is installed in: this module runs as src/config.ts (tests) or bundled into dist/*.mjs, one
 * level below it either way. Files that come with the install (the admin build) are found from here, not from
 * the working directory.
 */
const INSTALL_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SETTINGS = [
  'PORT',
  'HOST',
  'LISTEN_BACKLOG',
  'SITE_URL',
  'DATABASE_URL',
  'CONTENT_DIR',
  'STAFF_DEVICE_VERIFICATION',
  'MAIL_FROM',
  'MAIL_SMTP_URL',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'TRUST_PROXY',
  'SECRETS_KEY',
  'STORAGE',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
  'S3_PREFIX',
  'S3_PUBLIC_URL',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'UPLOAD_MAX_BYTES',
  'WORKER_THREADS',
  'METRICS_PORT',
  'METRICS_HOST',
  'SHUTDOWN_GRACE_MS',
  'FULL_TEXT_SEARCH',
  'MEMBERS_IMPORT_INLINE_ROWS',
  'DB_IMPORT_INLINE_BYTES',
  'JOBS_ENABLED',
  'JOBS_POLL_MS',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_MAX_ATTEMPTS',
  'WEBHOOK_RETRY_BASE_MS',
  'WEBHOOK_ALLOW_PRIVATE',
  'WEBHOOK_HISTORY_DAYS',
  'JOBS_LEASE_MS',
  'NEWSLETTER_SMTP_URL',
  'NEWSLETTER_RATE',
  'NEWSLETTER_CONNECTIONS',
  'NEWSLETTER_BATCH_SIZE',
  'NEWSLETTER_RETRIES',
  'NEWSLETTER_RETRY_MS',
  'RESPONSE_CACHE_MB',
  'REDIS_URL',
  'MEMBERS_VERIFY_REQUEST_INTEGRITY',
  'MEMBERS_BEARER_TOKENS',
  'ADMIN_APP',
  'ADMIN_APP_DIR',
  'REQUEST_TIMEOUT_MS',
  'REQUEST_QUEUE_TIMEOUT_MS',
  'DB_ACQUIRE_TIMEOUT_MS',
  'DB_STATEMENT_TIMEOUT_MS',
  'WORKER_TASK_TIMEOUT_MS',
] as const;

/**
 * Reads settings from the environment, falling back to an optional JSON file (`QUIRE_CONFIG`, or
 * `./config.json` when present) whose keys are the same names. The environment wins.
 */
export function loadConfig(env: Source = process.env, cwd = process.cwd()): Config {
  const file = readConfigFile(env.QUIRE_CONFIG, cwd);
  const source: Source = {};
  for (const key of SETTINGS) source[key] = env[key] ?? file[key];
  return parseConfig(source, cwd);
}

function readConfigFile(explicit: string | undefined, cwd: string): Source {
  const file = explicit ? path.resolve(cwd, explicit) : path.join(cwd, 'config.json');
  if (!existsSync(file)) {
    if (explicit) throw new ConfigError(`QUIRE_CONFIG: no file at ${file}`);
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`${file}: must hold a JSON object`);
  const out: Source = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!(SETTINGS as readonly string[]).includes(key)) throw new ConfigError(`${file}: unknown setting "${key}" (known: ${SETTINGS.join(', ')})`);
    out[key] = value === null || value === undefined ? undefined : String(value);
  }
  return out;
}

export function parseConfig(source: Source, cwd = process.cwd()): Config {
  const port = parsePort(source.PORT ?? '2368');
  const host = (source.HOST ?? '127.0.0.1').trim();
  if (!host) throw new ConfigError('HOST: must not be empty');
  // Linux's own cap since 5.4 (net.core.somaxconn): a burst of 1,000 new readers is held whole, and the request
  // queue (http/request-queue.ts) accepts it within a fraction of a second; with Node's 511 the rest had their
  // SYNs dropped and retried a second or more later (bench/many-readers.mjs).
  const listenBacklog = parseCount('LISTEN_BACKLOG', (source.LISTEN_BACKLOG ?? '4096').trim(), 1, 65_535);
  // Without SITE_URL the site is where it listens, so `url` fields and the setup output follow PORT.
  const siteUrl = parseSiteUrl(source.SITE_URL ?? `http://localhost:${port}`);
  const contentDir = path.resolve(cwd, source.CONTENT_DIR ?? './content');
  const databaseUrl = parseDatabaseUrl(source.DATABASE_URL, contentDir);
  const staffDeviceVerification = parseBoolean('STAFF_DEVICE_VERIFICATION', source.STAFF_DEVICE_VERIFICATION ?? 'true');
  const mail = parseMail(source);
  const logLevel = source.LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`);
  }
  const logFormat = source.LOG_FORMAT?.trim() || null;
  if (logFormat !== null && logFormat !== 'json' && logFormat !== 'pretty') throw new ConfigError(`LOG_FORMAT: must be json or pretty (got "${logFormat}")`);
  const trustProxy = parseTrustProxy(source.TRUST_PROXY ?? 'loopback');
  const secretsKey = parseSecretsKey(source.SECRETS_KEY);
  const s3 = parseStorage(source);
  const uploadMaxBytes = parseUploadMax(source.UPLOAD_MAX_BYTES ?? String(1024 * 1024 * 1024));
  const workerThreads = source.WORKER_THREADS?.trim() ? parseCount('WORKER_THREADS', source.WORKER_THREADS.trim(), 1, 64) : null;
  const metricsPort = source.METRICS_PORT?.trim() ? parseCount('METRICS_PORT', source.METRICS_PORT.trim(), 1, 65535) : null;
  if (metricsPort !== null && metricsPort === port) throw new ConfigError(`METRICS_PORT: must differ from PORT (${port}): metrics never share the public port`);
  const metricsHost = source.METRICS_HOST?.trim() || '127.0.0.1';
  const shutdownGraceMs = parseCount('SHUTDOWN_GRACE_MS', (source.SHUTDOWN_GRACE_MS ?? '10000').trim(), 0, 3_600_000);
  const fullTextSearch = parseBoolean('FULL_TEXT_SEARCH', source.FULL_TEXT_SEARCH ?? 'false');
  const membersImportInlineRows = parseCount('MEMBERS_IMPORT_INLINE_ROWS', (source.MEMBERS_IMPORT_INLINE_ROWS ?? '500').trim(), 0, 1_000_000);
  // 5 MB imports in well under a second with about 30 MB of parsed rows (bench/db-import.mjs: 50.9 MB in 6-7 s,
  // 282 MB RSS): the request can wait for it and get its problems back; larger files would hold the request,
  // and their memory, for many seconds. 0 sends every file to a job, as Ghost does in production.
  const dbImportInlineBytes = parseCount(
    'DB_IMPORT_INLINE_BYTES',
    (source.DB_IMPORT_INLINE_BYTES ?? String(5 * 1024 * 1024)).trim(),
    0,
    Number.MAX_SAFE_INTEGER,
  );
  const jobs = parseJobs(source);
  const newsletter = parseNewsletter(source);
  // 16 MB holds the common answers of a site (a browse page of 15 long posts is ~150 KB) within the 100 MB goal.
  const responseCacheBytes = parseCount('RESPONSE_CACHE_MB', (source.RESPONSE_CACHE_MB ?? '16').trim(), 0, 65_536) * 1024 * 1024;
  const redisUrl = source.REDIS_URL?.trim() || null;
  if (redisUrl && !/^rediss?:\/\/[^/]/.test(redisUrl)) throw new ConfigError(`REDIS_URL: must start with redis:// or rediss:// (got "${redisUrl}")`);
  const members = Object.freeze({
    verifyRequestIntegrity: parseBoolean('MEMBERS_VERIFY_REQUEST_INTEGRITY', source.MEMBERS_VERIFY_REQUEST_INTEGRITY ?? 'false'),
    bearerTokens: parseBoolean('MEMBERS_BEARER_TOKENS', source.MEMBERS_BEARER_TOKENS ?? 'false'),
  });
  const adminApp = Object.freeze({
    enabled: parseBoolean('ADMIN_APP', source.ADMIN_APP ?? 'true'),
    dir: source.ADMIN_APP_DIR?.trim() ? path.resolve(cwd, source.ADMIN_APP_DIR.trim()) : DEFAULT_ADMIN_APP_DIR,
  });
  const requestTimeoutMs = parseCount('REQUEST_TIMEOUT_MS', (source.REQUEST_TIMEOUT_MS ?? '60000').trim(), 1000, 3_600_000);
  // Well under the 2 s a reader should wait at most, yet long enough that few requests are turned away: a
  // turned-away reader who tries again at once costs a little work, so the shorter the wait, the more of them.
  const requestQueueTimeoutMs = parseCount('REQUEST_QUEUE_TIMEOUT_MS', (source.REQUEST_QUEUE_TIMEOUT_MS ?? '1000').trim(), 0, 3_600_000);
  const db = Object.freeze({
    acquireTimeoutMs: parseCount('DB_ACQUIRE_TIMEOUT_MS', (source.DB_ACQUIRE_TIMEOUT_MS ?? '10000').trim(), 100, 600_000),
    statementTimeoutMs: parseCount('DB_STATEMENT_TIMEOUT_MS', (source.DB_STATEMENT_TIMEOUT_MS ?? '60000').trim(), 0, 3_600_000),
  });
  const workerTaskTimeoutMs = parseCount('WORKER_TASK_TIMEOUT_MS', (source.WORKER_TASK_TIMEOUT_MS ?? '30000').trim(), 100, 3_600_000);
  return Object.freeze({
    port,
    listenBacklog,
    host,
    siteUrl,
    databaseUrl,
    contentDir,
    staffDeviceVerification,
    mail,
    newsletter,
    logLevel,
    logFormat,
    trustProxy,
    secretsKey,
    s3,
    uploadMaxBytes,
    workerThreads,
    metricsPort,
    metricsHost,
    shutdownGraceMs,
    fullTextSearch,
    membersImportInlineRows,
    dbImportInlineBytes,
    jobs,
    responseCacheBytes,
    redisUrl,
    members,
    adminApp,
    requestTimeoutMs,
    requestQueueTimeoutMs,
    db,
    workerTaskTimeoutMs,
  });
}

/** Where `quire admin fetch` puts the admin build unless told otherwise (git-ignored). */
export const DEFAULT_ADMIN_APP_DIR = path.join(INSTALL_ROOT, 'vendor', 'ghost-admin');

/** The default theme's files, part of the install (`themes/quire/` in the repository). */
export const DEFAULT_THEME_DIR = path.join(INSTALL_ROOT, 'themes', 'quire');
