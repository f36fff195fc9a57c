import path from 'node:path';
import type { JobsConfig, MailConfig, NewsletterConfig, S3Config } from './config-types.js';

/** The settings' source: the environment, over the optional config file. */
export type Source = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseStorage(source: Source): S3Config | null {
  const kind = (source.STORAGE ?? 'local').trim().toLowerCase();
  if (kind === 'local') return null;
  if (kind !== 's3') throw new ConfigError(`STORAGE: must be local or s3 (got "${source.STORAGE}")`);
  const bucket = source.S3_BUCKET?.trim();
  if (!bucket) throw new ConfigError('S3_BUCKET: required when STORAGE is s3');
  const endpoint = source.S3_ENDPOINT?.trim() || null;
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) throw new ConfigError(`S3_ENDPOINT: must be an http or https URL (got "${endpoint}")`);
  const publicUrl = source.S3_PUBLIC_URL?.trim() || null;
  if (publicUrl && !/^https?:\/\/[^/]/.test(publicUrl)) throw new ConfigError(`S3_PUBLIC_URL: must be an http or https URL (got "${publicUrl}")`);
  const prefix = (source.S3_PREFIX ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '..' || part === '.') || /[\\\0-\x1f]/.test(prefix))
    throw new ConfigError(`S3_PREFIX: must be a plain folder name (got "${prefix}")`);
  const accessKeyId = source.S3_ACCESS_KEY_ID?.trim();
  const secretAccessKey = source.S3_SECRET_ACCESS_KEY?.trim();
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: give both or neither');
  return Object.freeze({
    bucket,
    region: source.S3_REGION?.trim() || 'us-east-1',
    endpoint,
    forcePathStyle: parseBoolean('S3_FORCE_PATH_STYLE', source.S3_FORCE_PATH_STYLE ?? 'false'),
    prefix: prefix ? `${prefix}/` : '',
    publicUrl: publicUrl ? publicUrl.replace(/\/*$/, '/') : null,
    credentials: accessKeyId && secretAccessKey ? Object.freeze({ accessKeyId, secretAccessKey }) : null,
  });
}

export function parseUploadMax(raw: string): number {
  const bytes = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || bytes < 1) throw new ConfigError(`UPLOAD_MAX_BYTES: must be a whole number of bytes (got "${raw}")`);
  return bytes;
}

export function parseCount(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new ConfigError(`${name}: must be a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}

export function parsePort(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) throw new ConfigError(`PORT: must be a whole number from 1 to 65535 (got "${raw}")`);
  return port;
}

export function parseSiteUrl(raw: string): string {
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

export function parseDatabaseUrl(raw: string | undefined, contentDir: string): string {
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

export function parseTrustProxy(raw: string): boolean | string {
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

export function parseSecretsKey(raw: string | undefined): Buffer | null {
  const text = raw?.trim();
  if (!text) return null;
  if (!/^[0-9a-f]{64}$/i.test(text)) throw new ConfigError('SECRETS_KEY: must be 64 hex characters, a 32-byte key (make one with `openssl rand -hex 32`)');
  return Buffer.from(text, 'hex');
}

export function parseBoolean(name: string, raw: string): boolean {
  if (/^(true|1|yes|on)$/i.test(raw)) return true;
  if (/^(false|0|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name}: must be true or false (got "${raw}")`);
}

/** An SMTP server's URL, or null when the setting is empty. */
function parseSmtpUrl(name: string, raw: string | undefined): string | null {
  const url = raw?.trim() || null;
  if (url && !/^smtps?:\/\//.test(url)) throw new ConfigError(`${name}: must start with smtp:// or smtps:// (got "${url}")`);
  return url;
}

export function parseMail(source: Source): MailConfig {
  const smtpUrl = parseSmtpUrl('MAIL_SMTP_URL', source.MAIL_SMTP_URL);
  const from = source.MAIL_FROM?.trim() || null;
  if (from && !/@/.test(from)) throw new ConfigError(`MAIL_FROM: must hold an e-mail address (got "${from}")`);
  return Object.freeze({ from, smtpUrl });
}

export function parseJobs(source: Source): JobsConfig {
  const webhookTimeoutMs = parseCount('WEBHOOK_TIMEOUT_MS', (source.WEBHOOK_TIMEOUT_MS ?? '2000').trim(), 100, 120_000);
  // By default a lease outlives the slowest webhook request by far.
  const leaseMs = parseCount('JOBS_LEASE_MS', (source.JOBS_LEASE_MS ?? String(Math.max(30_000, webhookTimeoutMs * 3))).trim(), 1000, 3_600_000);
  if (leaseMs <= webhookTimeoutMs) throw new ConfigError(`JOBS_LEASE_MS: must be longer than WEBHOOK_TIMEOUT_MS (${webhookTimeoutMs})`);
  return Object.freeze({
    enabled: parseBoolean('JOBS_ENABLED', source.JOBS_ENABLED ?? 'true'),
    pollMs: parseCount('JOBS_POLL_MS', (source.JOBS_POLL_MS ?? '1000').trim(), 10, 600_000),
    webhookTimeoutMs,
    webhookMaxAttempts: parseCount('WEBHOOK_MAX_ATTEMPTS', (source.WEBHOOK_MAX_ATTEMPTS ?? '10').trim(), 1, 100),
    webhookRetryBaseMs: parseCount('WEBHOOK_RETRY_BASE_MS', (source.WEBHOOK_RETRY_BASE_MS ?? '5000').trim(), 1, 3_600_000),
    webhookAllowPrivate: parseBoolean('WEBHOOK_ALLOW_PRIVATE', source.WEBHOOK_ALLOW_PRIVATE ?? 'false'),
    historyDays: parseCount('WEBHOOK_HISTORY_DAYS', (source.WEBHOOK_HISTORY_DAYS ?? '30').trim(), 1, 3650),
    leaseMs,
  });
}

export function parseNewsletter(source: Source): NewsletterConfig {
  return Object.freeze({
    smtpUrl: parseSmtpUrl('NEWSLETTER_SMTP_URL', source.NEWSLETTER_SMTP_URL),
    ratePerSecond: parseCount('NEWSLETTER_RATE', (source.NEWSLETTER_RATE ?? '0').trim(), 0, 100_000),
    connections: parseCount('NEWSLETTER_CONNECTIONS', (source.NEWSLETTER_CONNECTIONS ?? '5').trim(), 1, 100),
    batchSize: parseCount('NEWSLETTER_BATCH_SIZE', (source.NEWSLETTER_BATCH_SIZE ?? '500').trim(), 1, 10_000),
    retries: parseCount('NEWSLETTER_RETRIES', (source.NEWSLETTER_RETRIES ?? '5').trim(), 0, 20),
    retryBaseMs: parseCount('NEWSLETTER_RETRY_MS', (source.NEWSLETTER_RETRY_MS ?? '2000').trim(), 1, 3_600_000),
  });
}
