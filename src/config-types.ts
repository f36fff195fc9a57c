/** `Config` (every setting of the service; config.ts reads and validates them) and its sections, one interface each. */

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

/** Every setting of the service, validated once at start; the frozen result is passed to whoever needs it. */
export interface Config {
  /** TCP port the HTTP server listens on. */
  readonly port: number;
  /**
   * Connections the kernel completes and holds for the server to accept (`LISTEN_BACKLOG`; Linux caps it at
   * `net.core.somaxconn`). Past it, a burst's further connections have their SYNs dropped and retried after 1 s, 3 s, 7 s…
   */
  readonly listenBacklog: number;
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
  /** Newsletter sending (`resources/emails/`): the bulk SMTP server, its throughput cap, batches and retries. */
  readonly newsletter: NewsletterConfig;
  /** pino log level. */
  readonly logLevel: string;
  /** `json` lines, or `pretty` lines for a person; null: pretty when stdout is a terminal, else json. */
  readonly logFormat: 'json' | 'pretty' | null;
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
  /** Where uploads, themes and backups live: null for local disk under `contentDir`, or an S3-compatible bucket. */
  readonly s3: S3Config | null;
  /** Largest single uploaded file, in bytes; a bigger one is refused while it streams in (413). */
  readonly uploadMaxBytes: number;
  /** Port for Prometheus metrics (`GET /metrics`); null: no metrics anywhere. Never the public port. */
  readonly metricsPort: number | null;
  /** Interface the metrics port binds. */
  readonly metricsHost: string;
  /** How long shutdown waits for requests in flight (and background work) before cutting them off. */
  readonly shutdownGraceMs: number;
  /** Worker threads for rendering and password hashing; null: one per core, at most four (workers/pool.ts). */
  readonly workerThreads: number | null;
  /** Serve Quire's full-text search, `GET /ghost/api/content/search/` (not part of Ghost's API; off unless asked for). */
  readonly fullTextSearch: boolean;
  /** Members CSV files of up to this many rows are imported during the request (201); larger ones by a background job (202). Ghost's is 500. */
  readonly membersImportInlineRows: number;
  /** `POST /db/` files of up to this many bytes are imported during the request; larger ones by a background job. */
  readonly dbImportInlineBytes: number;
  /** Webhook delivery and the job runner (`jobs/`). */
  readonly jobs: JobsConfig;
  /** Memory for kept Content API answers, in bytes (`RESPONSE_CACHE_MB`); 0: nothing is kept. */
  readonly responseCacheBytes: number;
  /**
   * Redis that instances tell each other new content versions through (`redis://…`); null: each instance
   * reads the version from the database for every Content API request.
   */
  readonly redisUrl: string | null;
  /** The Members API (`<site>/members/api/`): Ghost's request-integrity check and Quire's identity-token option. */
  readonly members: MembersConfig;
  /** Ghost's admin app at `<siteUrl>ghost/` (`admin-app/`). */
  readonly adminApp: AdminAppConfig;
  /**
   * Longest time a client may take to send a whole request, headers and body (`REQUEST_TIMEOUT_MS`); then the
   * connection is answered 408 and closed, as Node does for Ghost after 300 s. Raise it for large uploads
   * over slow links.
   */
  readonly requestTimeoutMs: number;
  /**
   * Longest time a request may wait for its turn under load (`REQUEST_QUEUE_TIMEOUT_MS`) before it is answered
   * 503 with Retry-After instead (http/request-queue.ts); 0: no limit.
   */
  readonly requestQueueTimeoutMs: number;
  /** Database waits (`db/connect.ts`). */
  readonly db: DbTimeouts;
  /** Longest run of one worker-pool task (rendering, html conversion, hashing) before its thread is ended. */
  readonly workerTaskTimeoutMs: number;
}
