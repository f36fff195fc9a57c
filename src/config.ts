import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

/** Every setting of the service, validated once at start; the frozen result is passed to whoever needs it. */
export interface Config {
  /** TCP port the HTTP server listens on. */
  readonly port: number;
  /** Interface to bind; 127.0.0.1 keeps a fresh install private until it sits behind a proxy. */
  readonly host: string;
  /** Public URL of the site, always ending with `/`; every `url` field and the API roots derive from it. */
  readonly siteUrl: string;
  /** Where the data lives: `sqlite:<file>`, `postgres://…` or `mysql://…`. */
  readonly databaseUrl: string;
  /** Folder for the SQLite file, images, themes and unsent mail. */
  readonly contentDir: string;
  /** Ask staff for an e-mailed code when they log in from a new device (Ghost's `staffDeviceVerification`). */
  readonly staffDeviceVerification: boolean;
  /** SMTP server for outgoing mail; without it mail is written to `<contentDir>/mail/`. */
  readonly mail: MailConfig;
  /** pino log level. */
  readonly logLevel: string;
  /**
   * Which peers may tell the client address through X-Forwarded-For: `false`, `true`, or proxy-addr names
   * and CIDRs (`loopback`, `10.0.0.0/8, 192.168.1.5`). Login limits count per client address, so trusting
   * every peer would let anyone pick a fresh address per attempt.
   */
  readonly trustProxy: boolean | string;
  /**
   * 32-byte key sealing secrets stored in the database (authenticator-app keys). Null: the key in
   * `<contentDir>/data/secrets.key` is used, made on first start (`auth/secret-box.ts`).
   */
  readonly secretsKey: Buffer | null;
}

export interface MailConfig {
  readonly from: string | null;
  readonly smtpUrl: string | null;
}

type Source = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const SETTINGS = [
  'PORT',
  'HOST',
  'SITE_URL',
  'DATABASE_URL',
  'CONTENT_DIR',
  'STAFF_DEVICE_VERIFICATION',
  'MAIL_FROM',
  'MAIL_SMTP_URL',
  'LOG_LEVEL',
  'TRUST_PROXY',
  'SECRETS_KEY',
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
  // Without SITE_URL the site is where it listens, so `url` fields and the setup output follow PORT.
  const siteUrl = parseSiteUrl(source.SITE_URL ?? `http://localhost:${port}`);
  const contentDir = path.resolve(cwd, source.CONTENT_DIR ?? './content');
  const databaseUrl = parseDatabaseUrl(source.DATABASE_URL, contentDir);
  const staffDeviceVerification = parseBoolean('STAFF_DEVICE_VERIFICATION', source.STAFF_DEVICE_VERIFICATION ?? 'true');
  const smtpUrl = source.MAIL_SMTP_URL?.trim() || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError(`MAIL_SMTP_URL: must start with smtp:// or smtps:// (got "${smtpUrl}")`);
  const from = source.MAIL_FROM?.trim() || null;
  if (from && !/@/.test(from)) throw new ConfigError(`MAIL_FROM: must hold an e-mail address (got "${from}")`);
  const logLevel = source.LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`);
  }
  const trustProxy = parseTrustProxy(source.TRUST_PROXY ?? 'loopback');
  const secretsKey = parseSecretsKey(source.SECRETS_KEY);
  return Object.freeze({
    port,
    host,
    siteUrl,
    databaseUrl,
    contentDir,
    staffDeviceVerification,
    mail: Object.freeze({ from, smtpUrl }),
    logLevel,
    trustProxy,
    secretsKey,
  });
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) throw new ConfigError(`PORT: must be a whole number from 1 to 65535 (got "${raw}")`);
  return port;
}

function parseSiteUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`SITE_URL: not a URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`SITE_URL: must use http or https (got "${raw}")`);
  if (url.search || url.hash) throw new ConfigError(`SITE_URL: must not have a query or fragment (got "${raw}")`);
  return url.origin + url.pathname.replace(/\/*$/, '/');
}

function parseDatabaseUrl(raw: string | undefined, contentDir: string): string {
  if (!raw) return `sqlite:${path.join(contentDir, 'data', 'quire.db')}`;
  if (/^sqlite:/.test(raw)) return raw;
  if (/^(postgres|postgresql|mysql|mariadb):\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL: not a valid URL');
    }
    return raw;
  }
  throw new ConfigError('DATABASE_URL: must start with sqlite:, postgres://, postgresql://, mysql:// or mariadb://');
}

function parseTrustProxy(raw: string): boolean | string {
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const valid = (entry: string) =>
    ['loopback', 'linklocal', 'uniquelocal'].includes(entry) || /^[\d.]+(\/\d+)?$/.test(entry) || /^[\da-f:]+(\/\d+)?$/i.test(entry);
  const bad = entries.find((entry) => !valid(entry));
  if (entries.length === 0 || bad !== undefined)
    throw new ConfigError(
      `TRUST_PROXY: must be true, false, or a comma-separated list of loopback, linklocal, uniquelocal, IP addresses or CIDR ranges (got "${raw}")`,
    );
  return entries.join(',');
}

function parseSecretsKey(raw: string | undefined): Buffer | null {
  const text = raw?.trim();
  if (!text) return null;
  if (!/^[0-9a-f]{64}$/i.test(text)) throw new ConfigError('SECRETS_KEY: must be 64 hex characters, a 32-byte key (make one with `openssl rand -hex 32`)');
  return Buffer.from(text, 'hex');
}

function parseBoolean(name: string, raw: string): boolean {
  if (/^(true|1|yes|on)$/i.test(raw)) return true;
  if (/^(false|0|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name}: must be true or false (got "${raw}")`);
}
