import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { Config } from './config.js';
import { connect, type Connection } from './db/connect.js';
import { renderError } from './http/render-error.js';
import { notFoundHandler } from './http/not-found.js';
import { apiRedirectHook } from './http/redirects.js';
import { registerJsonParser } from './http/json-body.js';
import { PUBLIC_BODY_LIMIT, adminBodyLimit } from './http/body-limits.js';
import { apiHeaders } from './http/api-headers.js';
import { adminAuthHook } from './http/admin-auth.js';
import { contentAuthHook } from './http/content-auth.js';
import { jsonBuffer } from './http/json-buffer.js';
import { actorOf } from './auth/actor.js';
import { assertPermission } from './auth/permissions.js';
import { ctxHook } from './http/request-ctx.js';
import { ctxBaseFromConfig } from './ctx-base.js';
import { jobCtx, siteOf } from './ctx.js';
import type { Clock } from './clock.js';
import { adminCorsOrigin } from './http/cors.js';
import { OneLinePerRequest } from './http/request-log.js';
import { requestIdOf } from './http/logging.js';
import { healthRoutes, type Readiness } from './http/health.js';
import { clientTimeoutOptions } from './http/client-timeout.js';
import { queuedServerFactory } from './http/request-queue.js';
import type { Metrics } from './http/metrics.js';
import { legacyUrlRewriter } from './http/legacy-versions.js';
import { checkVersionMatch } from './http/version-match.js';
import { contentCacheHooks, contentCaching } from './http/content-cache.js';
import { createSite } from './site/site.js';
import { privateFormRoute } from './site/private-route.js';
import { memberFromRequest } from './resources/members-api/members-api.session.js';
import { databaseContentVersions } from './events/content-version.js';
import { invalidateSettings } from './settings/settings.js';
import { cacheInvalidateHeader } from './http/cache-invalidate.js';
import { findUserById, roleNameOfUser } from './resources/users/users.queries.js';
import { DB_IMPORT_JOB, dbImportJob } from './resources/db/db.import-job.js';
import type { Mailer } from './mail/mailer.js';
import type { SecretBox } from './auth/secret-box.js';
import type { Storage } from './storage/storage.js';
import { JobRunner } from './jobs/runner.js';
import { publishDuePosts } from './resources/posts/posts.schedule.js';
import { MEMBERS_IMPORT_JOB, membersImportJob } from './resources/members/members.import-job.js';
import { memberAccessHooks } from './resources/members-api/members-api.content-access.js';
import { NEWSLETTER_BATCH_JOB, NEWSLETTER_PREPARE_JOB, newsletterPrepareJob } from './resources/emails/emails.prepare.js';
import { newsletterBatchJob } from './resources/emails/emails.batch.js';
import { createBulkSender } from './mail/bulk-transport.js';
import { adminApiRoutes, contentApiRoutes, outsideApiRoutes } from './app-routes.js';

export interface AppDeps {
  config: Config;
  connection: Connection;
  logger?: FastifyServerOptions['logger'];
  /** Outgoing mail; by default SMTP or the `CONTENT_DIR/mail/` folder, from the configuration. */
  mailer?: Mailer;
  /** Seals secrets stored in the database; by default with `SECRETS_KEY` or the key file (`auth/secret-box.ts`). */
  secrets?: SecretBox;
  /** Files; by default local disk under `CONTENT_DIR`, public ones at `<SITE_URL>content/`. */
  storage?: Storage;
  /** Where "now" comes from; tests fix it. */
  clock?: Clock;
  /** Prometheus metrics to record requests into (`METRICS_PORT`); none by default. */
  metrics?: Metrics;
  /** Whether the process still takes requests; `main.ts` clears it when shutdown begins, and /ready says so. */
  readiness?: Readiness;
  /**
   * Run the job runner (webhook delivery) beside the server: `main.ts` does unless `JOBS_ENABLED=false`;
   * tests that deliver ask for it. It stops, releasing its leases, when the app closes.
   */
  runJobs?: boolean;
}

/** Both APIs with their hooks and error handling; `main.ts` listens, tests call `inject()`. */
export async function buildApp({
  config,
  connection,
  logger = false,
  mailer,
  secrets,
  storage,
  clock,
  metrics,
  readiness = { accepting: true },
  runJobs = false,
}: AppDeps): Promise<FastifyInstance> {
  const { apiRoot, adminRoot } = siteOf(config.siteUrl);
  const app = Fastify({
    logger,
    bodyLimit: PUBLIC_BODY_LIMIT,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    logController: new OneLinePerRequest({ requestIdLogLabel: 'request_id' }),
    requestIdHeader: false,
    genReqId: requestIdOf,
    rewriteUrl: legacyUrlRewriter(apiRoot),
    ...clientTimeoutOptions(config.requestTimeoutMs),
    serverFactory: queuedServerFactory(
      config.requestQueueTimeoutMs,
      (count) =>
        app.log.warn(
          { count, queueTimeoutMs: config.requestQueueTimeoutMs },
          'overloaded: requests that waited longer than REQUEST_QUEUE_TIMEOUT_MS for their turn were answered 503',
        ),
      (method) => metrics?.shed(method),
    ),
  });
  await app.register(cookie);
  const base = ctxBaseFromConfig(config, connection, app.log, { mailer, secrets, storage, clock });
  app.decorateRequest('ctx', null as never);
  if (runJobs) {
    // On a database server the runner has a few connections of its own: its claims and records do not wait in
    // line behind the requests' transactions, nor they behind it. SQLite has one handle.
    const jobs =
      connection.engine.kind === 'sqlite'
        ? null
        : connect(config.databaseUrl, {
            poolSize: 3,
            ...config.db,
            onConnectionLost: (err) => app.log.warn({ err }, 'database connection lost (job runner); the pool replaces it'),
          });
    // Newsletters' pooled SMTP connections, kept open across batches and closed with the app.
    const bulkSender = createBulkSender(config);
    app.addHook('onClose', async () => bulkSender?.close());
    const runner = new JobRunner({
      db: jobs?.db ?? base.db,
      engine: base.engine,
      clock: base.clock,
      config: config.jobs,
      log: app.log,
      publishDue: (now) => publishDuePosts(jobCtx(base), now),
      jobs: {
        [MEMBERS_IMPORT_JOB]: membersImportJob(base),
        [DB_IMPORT_JOB]: dbImportJob(base),
        [NEWSLETTER_PREPARE_JOB]: newsletterPrepareJob(base, config),
        [NEWSLETTER_BATCH_JOB]: newsletterBatchJob(base, config, bulkSender),
      },
    });
    base.onEventsCommitted = () => runner.nudge();
    app.addHook('onReady', async () => runner.start());
    app.addHook('onClose', async () => {
      await runner.stop();
      await jobs?.close();
    });
  }
  const caching = await contentCaching(config, base.db, app.log);
  const { versions } = caching;
  if (versions) {
    base.onContentChanged = (version) => versions.committed(version);
    app.addHook('onClose', async () => versions.close());
  }
  registerJsonParser(app);
  app.setErrorHandler((err: FastifyError, request, reply) => renderError(err, request, reply));
  // The public site answers every GET and HEAD no route matched, outside the APIs and the other reader paths;
  // it renders through the same content version (read per request even with the cache off) and page cache.
  const site = createSite({
    base,
    versions: versions ?? databaseContentVersions(base.db, invalidateSettings),
    cache: caching.cache,
    member: async (ctx, request) => {
      const found = await memberFromRequest(ctx, request);
      return found && { access: { status: found.row.status, tierIds: found.tierIds }, data: found.data };
    },
  });
  app.addHook('onClose', async () => site.close());
  await privateFormRoute(app, site, config.siteUrl);
  const apiNotFound = notFoundHandler(apiRoot, config.siteUrl);
  app.setNotFoundHandler((request, reply) =>
    site.owns(request.method, request.url.split('?')[0]!) ? site.handle(request, reply) : apiNotFound(request, reply),
  );
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.addHook('onRequest', apiRedirectHook(apiRoot));
  metrics?.instrument(app);
  healthRoutes(app, connection.db, readiness);
  await app.register(
    async (admin) => {
      admin.addHook('onRoute', adminBodyLimit);
      admin.addHook('onRequest', async (request, reply) => apiHeaders(request, reply));
      await admin.register(cors, { origin: adminCorsOrigin(base.site.url), maxAge: 86400, methods: 'GET,HEAD,PUT,PATCH,POST,DELETE' });
      admin.addHook('onRequest', checkVersionMatch);
      admin.addHook('onRequest', adminAuthHook(base, { findUserById, roleNameOfUser }));
      admin.addHook('onRequest', ctxHook(base));
      admin.addHook('onSend', cacheInvalidateHeader);
      // From here on errors belong to the controller and get Ghost's "cannot <verb> <resource>" message.
      admin.addHook('preValidation', async (request) => {
        request.controllerStarted = true;
      });
      admin.addHook('preHandler', async (request) => {
        const { permission, frame } = request.routeOptions.config;
        if (permission && frame) assertPermission(actorOf(request.ctx), permission, frame.docName);
      });
      await adminApiRoutes(admin, config);
    },
    { prefix: adminRoot.slice(0, -1) },
  );
  await app.register(
    async (content) => {
      content.addHook('onRequest', async (request, reply) => {
        apiHeaders(request, reply);
        reply.header('Cache-Control', 'public, max-age=0');
      });
      await content.register(cors, { origin: '*', maxAge: 86400, methods: 'GET,HEAD,PUT,PATCH,POST,DELETE' });
      // Fastify sends the Buffer as it is (its types only name strings).
      content.setReplySerializer(jsonBuffer as (payload: unknown) => string);
      content.addHook('onRequest', contentAuthHook(base.db));
      // The member's access keys the kept answers, so it is known before the cache is looked at.
      const memberAccess = memberAccessHooks(base, config);
      content.addHook('onRequest', memberAccess.resolve);
      // After the key check: a deleted key is refused even where its URL's answer is kept.
      contentCacheHooks(content, caching);
      content.addHook('onRequest', ctxHook(base));
      content.addHook('onRequest', memberAccess.attach);
      content.addHook('preValidation', async (request) => {
        request.controllerStarted = true;
      });
      contentApiRoutes(content, config);
    },
    { prefix: `${apiRoot}content` },
  );
  await outsideApiRoutes(app, base, config);
  return app;
}
