/** The sections of `Config` (config.ts), one interface each. */

export interface MembersConfig {
  /**
   * Refuse `send-magic-link` without a valid integrity token (`MEMBERS_VERIFY_REQUEST_INTEGRITY`, Ghost's
   * `verifyRequestIntegrity`); off by default as in Ghost, which only logs the missing token.
   */
  readonly verifyRequestIntegrity: boolean;
  /**
   * Beyond Ghost: the Content API takes a member identity token (`GET /members/api/session/`) as
   * `Authorization: Bearer <token>` and answers with that member's access (`MEMBERS_BEARER_TOKENS`; off by default).
   */
  readonly bearerTokens: boolean;
}

export interface AdminAppConfig {
  /** Serve it (`ADMIN_APP`, on by default); off, `<siteUrl>ghost/` is unmatched and only the API answers under it. */
  readonly enabled: boolean;
  /**
   * The build folder (`ADMIN_APP_DIR`): by default `vendor/ghost-admin/` of the install, filled by
   * `quire admin fetch` (which `npm install` runs); another folder serves another build of Ghost's admin.
   */
  readonly dir: string;
}

export interface DbTimeouts {
  /** Longest wait for a database connection (a free pool slot, or a new connect). */
  readonly acquireTimeoutMs: number;
  /** Longest run of one statement; 0: no limit. */
  readonly statementTimeoutMs: number;
}

export interface JobsConfig {
  /** Run the job runner in this instance; off for instances that should only answer requests. */
  readonly enabled: boolean;
  /** How often the runner looks for due work when it has none in hand. */
  readonly pollMs: number;
  /** The whole time one webhook request may take (Ghost's 2 s). */
  readonly webhookTimeoutMs: number;
  /** Attempts of one delivery before it is marked failed. */
  readonly webhookMaxAttempts: number;
  /** The first retry's delay; each later one doubles it (with jitter), up to an hour. */
  readonly webhookRetryBaseMs: number;
  /** Allow webhook targets on loopback, private and link-local addresses (refused by default: SSRF). */
  readonly webhookAllowPrivate: boolean;
  /** Days finished deliveries (and the events they sent) are kept for the delivery history. */
  readonly historyDays: number;
  /**
   * How long a claim holds before another instance may take the work over: how soon the work of an instance
   * that died (SIGKILL, a lost machine) is picked up. Renewed at a third of it while the work runs.
   */
  readonly leaseMs: number;
}

export interface S3Config {
  readonly bucket: string;
  readonly region: string;
  readonly endpoint: string | null;
  readonly forcePathStyle: boolean;
  /** Empty, or ending with `/`. */
  readonly prefix: string;
  /** Ending with `/`; null when this service serves the files at `<siteUrl>content/`. */
  readonly publicUrl: string | null;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
}

export interface MailConfig {
  readonly from: string | null;
  readonly smtpUrl: string | null;
}

export interface NewsletterConfig {
  /** `NEWSLETTER_SMTP_URL`: a bulk provider's SMTP server for newsletters; null: `MAIL_SMTP_URL`'s. */
  readonly smtpUrl: string | null;
  /** `NEWSLETTER_RATE`: mails per second one instance sends at most (0: as fast as the server takes them). */
  readonly ratePerSecond: number;
  /** `NEWSLETTER_CONNECTIONS`: SMTP connections one instance keeps open while it sends. */
  readonly connections: number;
  /** `NEWSLETTER_BATCH_SIZE`: recipients per batch, the unit one instance claims. */
  readonly batchSize: number;
  /** `NEWSLETTER_RETRIES`: rounds a recipient refused for now (4xx, timeout) is tried again before its batch fails. */
  readonly retries: number;
  /** `NEWSLETTER_RETRY_MS`: wait before the first retry round, doubled each round. */
  readonly retryBaseMs: number;
}
