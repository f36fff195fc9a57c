import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = parseConfig({}, '/srv/quire');
    expect(config).toMatchObject({
      port: 2368,
      host: '127.0.0.1',
      siteUrl: 'http://localhost:2368/',
      contentDir: '/srv/quire/content',
      databaseUrl: 'sqlite:/srv/quire/content/data/quire.db',
      staffDeviceVerification: true,
      mail: { from: null, smtpUrl: null },
      trustProxy: 'loopback',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads the secrets key as 64 hex characters; unset, it is null (a key file is used)', () => {
    expect(parseConfig({ SECRETS_KEY: 'ab'.repeat(32) }).secretsKey).toEqual(Buffer.alloc(32, 0xab));
    expect(parseConfig({}).secretsKey).toBeNull();
  });

  it('keeps files on local disk by default, in an S3 bucket with STORAGE=s3', () => {
    expect(parseConfig({}).s3).toBeNull();
    expect(parseConfig({}).uploadMaxBytes).toBe(1024 * 1024 * 1024);
    expect(
      parseConfig({
        STORAGE: 's3',
        S3_BUCKET: 'media',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: '/site-a/',
        S3_PUBLIC_URL: 'https://cdn.example.com',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).s3,
    ).toEqual({
      bucket: 'media',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      prefix: 'site-a/',
      publicUrl: 'https://cdn.example.com/',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    expect(parseConfig({ STORAGE: 's3', S3_BUCKET: 'media' }).s3).toMatchObject({ endpoint: null, prefix: '', publicUrl: null, credentials: null });
  });

  it.each([
    [{ STORAGE: 'ftp' }, 'STORAGE'],
    [{ STORAGE: 's3' }, 'S3_BUCKET'],
    [{ STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' }, 'S3_ENDPOINT'],
    [{ STORAGE: 's3', S3_BUCKET: 'b', S3_PREFIX: '../x' }, 'S3_PREFIX'],
    [{ STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' }, 'S3_ACCESS_KEY_ID'],
    [{ UPLOAD_MAX_BYTES: '10MB' }, 'UPLOAD_MAX_BYTES'],
  ])('refuses the storage settings %j', (source, name) => {
    expect(() => parseConfig(source)).toThrow(name);
  });

  it('reads the worker thread count; unset, it is null (one per core, at most four)', () => {
    expect(parseConfig({ WORKER_THREADS: '3' }).workerThreads).toBe(3);
    expect(parseConfig({}).workerThreads).toBeNull();
    expect(() => parseConfig({ WORKER_THREADS: '0' })).toThrow('WORKER_THREADS: must be a whole number from 1 to 64 (got "0")');
  });

  it("listens with a backlog of 4096 (Linux's own cap), unless LISTEN_BACKLOG says otherwise", () => {
    expect(parseConfig({}).listenBacklog).toBe(4096);
    expect(parseConfig({ LISTEN_BACKLOG: '8192' }).listenBacklog).toBe(8192);
    expect(() => parseConfig({ LISTEN_BACKLOG: '0' })).toThrow('LISTEN_BACKLOG: must be a whole number from 1 to 65535 (got "0")');
  });

  it('bounds every wait: request, database acquire and statement, worker task', () => {
    expect(parseConfig({})).toMatchObject({
      requestTimeoutMs: 60_000,
      db: { acquireTimeoutMs: 10_000, statementTimeoutMs: 60_000 },
      workerTaskTimeoutMs: 30_000,
    });
    const set = parseConfig({ REQUEST_TIMEOUT_MS: '5000', DB_ACQUIRE_TIMEOUT_MS: '2000', DB_STATEMENT_TIMEOUT_MS: '0', WORKER_TASK_TIMEOUT_MS: '1000' });
    expect(set).toMatchObject({ requestTimeoutMs: 5000, db: { acquireTimeoutMs: 2000, statementTimeoutMs: 0 }, workerTaskTimeoutMs: 1000 });
    expect(() => parseConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow('REQUEST_TIMEOUT_MS: must be a whole number from 1000 to 3600000 (got "0")');
    expect(() => parseConfig({ DB_ACQUIRE_TIMEOUT_MS: 'soon' })).toThrow(/^DB_ACQUIRE_TIMEOUT_MS: must be a whole number/);
  });

  it('turns away a request that waited over a second for its turn, unless REQUEST_QUEUE_TIMEOUT_MS says otherwise (0: never)', () => {
    expect(parseConfig({}).requestQueueTimeoutMs).toBe(1000);
    expect(parseConfig({ REQUEST_QUEUE_TIMEOUT_MS: '0' }).requestQueueTimeoutMs).toBe(0);
    expect(() => parseConfig({ REQUEST_QUEUE_TIMEOUT_MS: '-1' })).toThrow(/^REQUEST_QUEUE_TIMEOUT_MS: must be a whole number from 0 to 3600000/);
  });

  it('reads the log format; unset, it is null (pretty at a terminal)', () => {
    expect(parseConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(parseConfig({}).logFormat).toBeNull();
    expect(() => parseConfig({ LOG_FORMAT: 'text' })).toThrow('LOG_FORMAT: must be json or pretty (got "text")');
  });

  it('reads trusted proxies', () => {
    expect(parseConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(parseConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback,10.0.0.0/8');
  });

  it('follows PORT with the site URL when SITE_URL is not set', () => {
    expect(parseConfig({ PORT: '3001' }).siteUrl).toBe('http://localhost:3001/');
    expect(parseConfig({ PORT: '3001', SITE_URL: 'https://example.com' }).siteUrl).toBe('https://example.com/');
  });

  it('normalises the site URL to end with a slash, keeping a sub-directory', () => {
    expect(parseConfig({ SITE_URL: 'https://example.com/blog' }).siteUrl).toBe('https://example.com/blog/');
  });

  it.each([
    [{ PORT: '0' }, 'PORT: must be a whole number from 1 to 65535 (got "0")'],
    [{ PORT: 'http' }, 'PORT: must be a whole number from 1 to 65535 (got "http")'],
    [{ SITE_URL: 'example.com' }, 'SITE_URL: not a URL (got "example.com")'],
    [{ SITE_URL: 'ftp://example.com' }, 'SITE_URL: must use http or https (got "ftp://example.com")'],
    [{ SITE_URL: 'https://example.com/?a=1' }, 'SITE_URL: must not have a query or fragment (got "https://example.com/?a=1")'],
    [{ DATABASE_URL: 'oracle://db' }, 'DATABASE_URL: must start with sqlite:, postgres://, postgresql://, mysql:// or mariadb://'],
    [{ STAFF_DEVICE_VERIFICATION: 'maybe' }, 'STAFF_DEVICE_VERIFICATION: must be true or false (got "maybe")'],
    [{ MAIL_SMTP_URL: 'mail.example.com' }, 'MAIL_SMTP_URL: must start with smtp:// or smtps:// (got "mail.example.com")'],
    [
      { TRUST_PROXY: 'everyone' },
      'TRUST_PROXY: must be true, false, or a comma-separated list of loopback, linklocal, uniquelocal, IP addresses or CIDR ranges (got "everyone")',
    ],
    [{ SECRETS_KEY: 'abc123' }, 'SECRETS_KEY: must be 64 hex characters, a 32-byte key (make one with `openssl rand -hex 32`)'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
  ])('refuses %o with a clear message', (source, message) => {
    expect(() => parseConfig(source)).toThrow(message);
  });

  it('holds job leases 30 s by default, longer with a long webhook timeout, never shorter than the timeout', () => {
    expect(parseConfig({}).jobs.leaseMs).toBe(30_000);
    expect(parseConfig({ WEBHOOK_TIMEOUT_MS: '20000' }).jobs.leaseMs).toBe(60_000);
    expect(parseConfig({ JOBS_LEASE_MS: '5000' }).jobs.leaseMs).toBe(5000);
    expect(() => parseConfig({ JOBS_LEASE_MS: '2000' })).toThrow('JOBS_LEASE_MS: must be longer than WEBHOOK_TIMEOUT_MS (2000)');
  });

  it('imports POST /db/ files of up to 5 MB inline by default; both import thresholds are read from the environment', () => {
    expect(parseConfig({}).dbImportInlineBytes).toBe(5 * 1024 * 1024);
    expect(loadConfig({ DB_IMPORT_INLINE_BYTES: '0', MEMBERS_IMPORT_INLINE_ROWS: '20' }, mkdtempSync(path.join(tmpdir(), 'quire-config-')))).toMatchObject({
      dbImportInlineBytes: 0,
      membersImportInlineRows: 20,
    });
    expect(() => parseConfig({ DB_IMPORT_INLINE_BYTES: '5MB' })).toThrow('DB_IMPORT_INLINE_BYTES: must be a whole number');
  });

  it('keeps 16 MB of Content API answers by default, none with 0; Redis only when REDIS_URL names one', () => {
    expect(parseConfig({})).toMatchObject({ responseCacheBytes: 16 * 1024 * 1024, redisUrl: null });
    expect(loadConfig({ RESPONSE_CACHE_MB: '0', REDIS_URL: 'redis://127.0.0.1:6379' }, mkdtempSync(path.join(tmpdir(), 'quire-config-')))).toMatchObject({
      responseCacheBytes: 0,
      redisUrl: 'redis://127.0.0.1:6379',
    });
    expect(() => parseConfig({ RESPONSE_CACHE_MB: '16MB' })).toThrow('RESPONSE_CACHE_MB: must be a whole number');
    expect(() => parseConfig({ REDIS_URL: '127.0.0.1:6379' })).toThrow('REDIS_URL: must start with redis:// or rediss://');
  });

  it('reads a JSON config file, the environment winning', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-config-'));
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ PORT: 3000, SITE_URL: 'https://file.example' }));
    expect(loadConfig({ SITE_URL: 'https://env.example' }, dir)).toMatchObject({ port: 3000, siteUrl: 'https://env.example/' });
    writeFileSync(path.join(dir, 'other.json'), JSON.stringify({ PROT: 1 }));
    expect(() => loadConfig({ QUIRE_CONFIG: 'other.json' }, dir)).toThrow('unknown setting "PROT"');
    expect(() => loadConfig({ QUIRE_CONFIG: 'missing.json' }, dir)).toThrow('QUIRE_CONFIG: no file at');
  });
});
