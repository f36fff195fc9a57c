import path from 'node:path';
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
import type { Metrics } from './http/metrics.js';
import { legacyUrlRewriter } from './http/legacy-versions.js';
import { checkVersionMatch } from './http/version-match.js';
import { contentCacheHooks, contentCaching } from './http/content-cache.js';
import { createSite } from './site/site.js';
import { privateFormRoute } from './site/private-route.js';
import { memberFromRequest } from './resources/members-api/members-api.session.js';
import { databaseContentVersions } from './events/content-version.js';
import { invalidateSettings } from './settings/settings.js';
import { siteRoutes } from './resources/site/site.routes.js';
import { emailPreviewsRoutes } from './resources/email-previews/email-previews.routes.js';
import { linkRedirectRoutes, linksAdminRoutes } from './resources/links/links.routes.js';
import { settingsAdminRoutes, settingsContentRoutes } from './resources/settings/settings.routes.js';
import { configRoutes } from './resources/config/config.routes.js';
import { setupRoutes } from './resources/setup/setup.routes.js';
import { sessionRoutes } from './resources/session/session.routes.js';
import { integrationsRoutes } from './resources/integrations/integrations.routes.js';
import { tagsAdminRoutes, tagsContentRoutes } from './resources/tags/tags.routes.js';
import { labelsAdminRoutes } from './resources/labels/labels.routes.js';
import { tiersAdminRoutes, tiersContentRoutes } from './resources/tiers/tiers.routes.js';
import { newslettersAdminRoutes, newslettersContentRoutes } from './resources/newsletters/newsletters.routes.js';
import { offersAdminRoutes, offersContentRoutes } from './resources/offers/offers.routes.js';
import { cacheInvalidateHeader } from './http/cache-invalidate.js';
import { MEMBER_PATHS_NOT_BUILT, membersAdminRoutes } from './resources/members/members.routes.js';
import { postsAdminRoutes } from './resources/posts/posts.routes.js';
import { postsContentRoutes } from './resources/posts/posts.content-routes.js';
import { authorsContentRoutes } from './resources/authors/authors.routes.js';
import { usersRoutes } from './resources/users/users.routes.js';
import { findUserById, roleNameOfUser } from './resources/users/users.queries.js';
import { rolesRoutes } from './resources/roles/roles.routes.js';
import { invitesRoutes } from './resources/invites/invites.routes.js';
import { authenticationRoutes } from './resources/authentication/authentication.routes.js';
import { authenticatorRoutes } from './resources/authenticator/authenticator.routes.js';
import { imagesRoutes } from './resources/images/images.routes.js';
import { mediaRoutes } from './resources/media/media.routes.js';
import { filesRoutes } from './resources/files/files.routes.js';
import { themesRoutes } from './resources/themes/themes.routes.js';
import { customThemeSettingsRoutes } from './resources/themes/custom-theme-settings.routes.js';
import { routeSettingsRoutes } from './resources/route-settings/route-settings.routes.js';
import { redirectsRoutes } from './resources/redirects/redirects.routes.js';
import { webhooksRoutes } from './resources/webhooks/webhooks.routes.js';
import { schedulesRoutes } from './resources/schedules/schedules.routes.js';
import { publicFilesRoutes } from './resources/public-files/public-files.routes.js';
import { dbRoutes } from './resources/db/db.routes.js';
import { DB_IMPORT_JOB, dbImportJob } from './resources/db/db.import-job.js';
import { registerMultipart } from './http/upload.js';
import { slugsRoutes } from './resources/slugs/slugs.routes.js';
import { actionsRoutes } from './resources/actions/actions.routes.js';
import { notificationsRoutes } from './resources/notifications/notifications.routes.js';
import { recommendationsAdminRoutes, recommendationsContentRoutes } from './resources/recommendations/recommendations.routes.js';
import { searchContentRoutes } from './resources/search/search.routes.js';
import { statsRoutes } from './resources/stats/stats.routes.js';
import { snippetsRoutes } from './resources/snippets/snippets.routes.js';
import { searchIndexAdminRoutes, searchIndexContentRoutes } from './resources/search-index/search-index.routes.js';
import type { Mailer } from './mail/mailer.js';
import type { SecretBox } from './auth/secret-box.js';
import type { Storage } from './storage/storage.js';
import { JobRunner } from './jobs/runner.js';
import { publishDuePosts } from './resources/posts/posts.schedule.js';
import { membersUploadRoutes } from './resources/members/members.upload.routes.js';
import { MEMBERS_IMPORT_JOB, membersImportJob } from './resources/members/members.import-job.js';
import { membersApiRoutes } from './resources/members-api/members-api.routes.js';
import { memberAccessHooks } from './resources/members-api/members-api.content-access.js';
import { readerScriptsRoutes } from './resources/reader-scripts/reader-scripts.routes.js';
import { adminAppRoutes } from './admin-app/admin-app.routes.js';
import { emailsRoutes } from './resources/emails/emails.routes.js';
import { emailsPublicRoutes } from './resources/emails/emails.public-routes.js';
import { NEWSLETTER_BATCH_JOB, NEWSLETTER_PREPARE_JOB, newsletterPrepareJob } from './resources/emails/emails.prepare.js';
import { newsletterBatchJob } from './resources/emails/emails.batch.js';
import { createBulkSender } from './mail/bulk-transport.js';

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
      await registerMultipart(admin, config.uploadMaxBytes);
      siteRoutes(admin);
      settingsAdminRoutes(admin);
      configRoutes(admin, { staffDeviceVerification: config.staffDeviceVerification, smtp: Boolean(config.mail.smtpUrl) });
      setupRoutes(admin);
      sessionRoutes(admin, { deviceVerification: config.staffDeviceVerification });
      integrationsRoutes(admin);
      tagsAdminRoutes(admin);
      labelsAdminRoutes(admin);
      tiersAdminRoutes(admin);
      newslettersAdminRoutes(admin);
      offersAdminRoutes(admin);
      membersUploadRoutes(admin, { inlineRows: config.membersImportInlineRows });
      membersAdminRoutes(admin);
      postsAdminRoutes(admin, 'post');
      postsAdminRoutes(admin, 'page');
      usersRoutes(admin);
      rolesRoutes(admin);
      invitesRoutes(admin);
      authenticationRoutes(admin);
      authenticatorRoutes(admin);
      imagesRoutes(admin);
      mediaRoutes(admin);
      filesRoutes(admin);
      themesRoutes(admin);
      customThemeSettingsRoutes(admin);
      routeSettingsRoutes(admin);
      redirectsRoutes(admin);
      webhooksRoutes(admin, { allowPrivate: config.jobs.webhookAllowPrivate });
      schedulesRoutes(admin);
      slugsRoutes(admin);
      snippetsRoutes(admin);
      searchIndexAdminRoutes(admin);
      actionsRoutes(admin);
      notificationsRoutes(admin);
      recommendationsAdminRoutes(admin);
      statsRoutes(admin);
      emailsRoutes(admin);
      emailPreviewsRoutes(admin);
      linksAdminRoutes(admin);
      dbRoutes(admin, { backupFolder: config.s3 ? null : path.join(config.contentDir, 'data'), inlineBytes: config.dbImportInlineBytes });
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
      postsContentRoutes(content, 'post');
      postsContentRoutes(content, 'page');
      tagsContentRoutes(content);
      tiersContentRoutes(content);
      newslettersContentRoutes(content);
      offersContentRoutes(content);
      authorsContentRoutes(content);
      settingsContentRoutes(content);
      searchIndexContentRoutes(content);
      recommendationsContentRoutes(content);
      if (config.fullTextSearch) searchContentRoutes(content);
    },
    { prefix: `${apiRoot}content` },
  );
  const unmatched = notFoundHandler(apiRoot, config.siteUrl);
  for (const [method, path] of MEMBER_PATHS_NOT_BUILT) app.route({ method, url: `${adminRoot}${path}`, handler: unmatched });
  await membersApiRoutes(app, base, config, { siteRoutes });
  readerScriptsRoutes(app, config.siteUrl);
  publicFilesRoutes(app, base);
  await emailsPublicRoutes(app, base, config.siteUrl);
  linkRedirectRoutes(app, base);
  if (config.adminApp.enabled) adminAppRoutes(app, { siteUrl: config.siteUrl, dir: config.adminApp.dir });
  return app;
}
