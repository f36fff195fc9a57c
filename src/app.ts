import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { Config } from './config.js';
import type { Connection } from './db/connect.js';
import { renderError } from './http/render-error.js';
import { notFoundHandler } from './http/not-found.js';
import { apiRedirectHook } from './http/redirects.js';
import { registerJsonParser } from './http/json-body.js';
import { apiHeaders } from './http/api-headers.js';
import { adminAuthHook } from './http/admin-auth.js';
import { contentAuthHook } from './http/content-auth.js';
import { actorOf, assertPermission } from './http/actor.js';
import { adminCorsOrigin } from './http/cors.js';
import { OneLinePerRequest } from './http/request-log.js';
import { legacyUrlRewriter } from './http/legacy-versions.js';
import { checkVersionMatch } from './http/version-match.js';
import { siteRoutes } from './resources/site/site.routes.js';
import { setupRoutes } from './resources/setup/setup.routes.js';
import { sessionRoutes } from './resources/session/session.routes.js';
import { integrationsRoutes } from './resources/integrations/integrations.routes.js';
import { tagsAdminRoutes, tagsContentRoutes } from './resources/tags/tags.routes.js';
import { postsAdminRoutes } from './resources/posts/posts.routes.js';
import { postsContentRoutes } from './resources/posts/posts.content-routes.js';
import { authorsContentRoutes } from './resources/authors/authors.routes.js';
import { usersRoutes } from './resources/users/users.routes.js';
import { rolesRoutes } from './resources/roles/roles.routes.js';
import { invitesRoutes } from './resources/invites/invites.routes.js';
import { authenticationRoutes } from './resources/authentication/authentication.routes.js';
import { authenticatorRoutes } from './resources/authenticator/authenticator.routes.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { resolveSecretsKey, secretBox, type SecretBox } from './auth/secret-box.js';
import { localDiskStorage } from './storage/local-disk.js';
import type { Storage } from './storage/storage.js';

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
}

/** Both APIs with their hooks and error handling; `main.ts` listens, tests call `inject()`. */
export async function buildApp({
  config, connection, logger = false, mailer: givenMailer,
  secrets = secretBox(resolveSecretsKey(config).key),
  storage = localDiskStorage(config.contentDir, `${config.siteUrl}content/`),
}: AppDeps): Promise<FastifyInstance> {
  const { db } = connection;
  const siteUrl = config.siteUrl;
  const sitePath = new URL(siteUrl).pathname;
  const apiRoot = `${sitePath}ghost/api/`;
  const adminRoot = `${apiRoot}admin/`;

  const app = Fastify({
    logger,
    bodyLimit: 50 * 1024 * 1024,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    logController: new OneLinePerRequest(),
    rewriteUrl: legacyUrlRewriter(apiRoot),
  });
  await app.register(cookie);
  const mailer = givenMailer ?? createMailer(config, app.log);
  registerJsonParser(app);

  app.setErrorHandler((err: FastifyError, request, reply) => renderError(err, request, reply));
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRequest', apiRedirectHook(apiRoot));

  await app.register(async (admin) => {
    admin.addHook('onRequest', async (request, reply) => apiHeaders(request, reply));
    await admin.register(cors, { origin: adminCorsOrigin(siteUrl), maxAge: 86400, methods: 'GET,HEAD,PUT,PATCH,POST,DELETE' });
    admin.addHook('onRequest', checkVersionMatch);
    admin.addHook('onRequest', adminAuthHook({ db, siteUrl, adminRoot }));
    // From here on errors belong to the controller and get Ghost's "cannot <verb> <resource>" message.
    admin.addHook('preValidation', async (request) => {
      request.controllerStarted = true;
    });
    admin.addHook('preHandler', async (request) => {
      const { permission, frame } = request.routeOptions.config;
      if (permission && frame) assertPermission(actorOf(request), permission, frame.docName);
    });
    siteRoutes(admin, { db, siteUrl });
    setupRoutes(admin, { db, siteUrl });
    sessionRoutes(admin, { db, siteUrl, mailer, secrets, deviceVerification: config.staffDeviceVerification });
    integrationsRoutes(admin, { db });
    tagsAdminRoutes(admin, { db, siteUrl, engine: connection.engine });
    postsAdminRoutes(admin, 'post', { db, siteUrl, engine: connection.engine });
    postsAdminRoutes(admin, 'page', { db, siteUrl, engine: connection.engine });
    usersRoutes(admin, { db, siteUrl, storage, engine: connection.engine });
    rolesRoutes(admin, { db });
    invitesRoutes(admin, { db, engine: connection.engine, mailer, siteUrl });
    authenticationRoutes(admin, { db, mailer, siteUrl });
    authenticatorRoutes(admin, { db, siteUrl, secrets });
  }, { prefix: adminRoot.slice(0, -1) });

  await app.register(async (content) => {
    content.addHook('onRequest', async (request, reply) => {
      apiHeaders(request, reply);
      reply.header('Cache-Control', 'public, max-age=0');
    });
    await content.register(cors, { origin: '*', maxAge: 86400, methods: 'GET,HEAD,PUT,PATCH,POST,DELETE' });
    content.addHook('onRequest', contentAuthHook(db));
    content.addHook('preValidation', async (request) => {
      request.controllerStarted = true;
    });
    postsContentRoutes(content, 'post', { db, siteUrl, engine: connection.engine });
    postsContentRoutes(content, 'page', { db, siteUrl, engine: connection.engine });
    tagsContentRoutes(content, { db, siteUrl, engine: connection.engine });
    authorsContentRoutes(content, { db, siteUrl, engine: connection.engine });
  }, { prefix: `${apiRoot}content` });

  return app;
}
