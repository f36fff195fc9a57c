import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { siteOf, type CtxBase } from './ctx.js';
import { notFoundHandler } from './http/not-found.js';
import { registerMultipart } from './http/upload.js';
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
import { MEMBER_PATHS_NOT_BUILT, membersAdminRoutes } from './resources/members/members.routes.js';
import { membersUploadRoutes } from './resources/members/members.upload.routes.js';
import { postsAdminRoutes } from './resources/posts/posts.routes.js';
import { postsContentRoutes } from './resources/posts/posts.content-routes.js';
import { authorsContentRoutes } from './resources/authors/authors.routes.js';
import { usersRoutes } from './resources/users/users.routes.js';
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
import { slugsRoutes } from './resources/slugs/slugs.routes.js';
import { actionsRoutes } from './resources/actions/actions.routes.js';
import { notificationsRoutes } from './resources/notifications/notifications.routes.js';
import { recommendationsAdminRoutes, recommendationsContentRoutes } from './resources/recommendations/recommendations.routes.js';
import { searchContentRoutes } from './resources/search/search.routes.js';
import { statsRoutes } from './resources/stats/stats.routes.js';
import { snippetsRoutes } from './resources/snippets/snippets.routes.js';
import { searchIndexAdminRoutes, searchIndexContentRoutes } from './resources/search-index/search-index.routes.js';
import { membersApiRoutes } from './resources/members-api/members-api.routes.js';
import { readerScriptsRoutes } from './resources/reader-scripts/reader-scripts.routes.js';
import { adminAppRoutes } from './admin-app/admin-app.routes.js';
import { emailsRoutes } from './resources/emails/emails.routes.js';
import { emailsPublicRoutes } from './resources/emails/emails.public-routes.js';

/*
 * Which resources each part of the service mounts. `app.ts` builds the scopes and their hooks (authentication,
 * headers, CORS, caching) and calls these inside them; a new resource's routes are added here.
 */

/** Every resource's Admin API routes, inside the admin scope. */
export async function adminApiRoutes(admin: FastifyInstance, config: Config): Promise<void> {
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
}

/** Every resource's Content API routes, inside the content scope. */
export function contentApiRoutes(content: FastifyInstance, config: Config): void {
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
}

/**
 * The routes outside the two APIs' scopes, each with its own hooks: the Members API, the reader scripts,
 * uploads, newsletters' web pages and link redirects, and Ghost's admin app.
 */
export async function outsideApiRoutes(app: FastifyInstance, base: CtxBase, config: Config): Promise<void> {
  const { apiRoot, adminRoot } = siteOf(config.siteUrl);
  // Ghost's member endpoints not built here, which `/members/:id/` would otherwise take, answer as unmatched.
  const unmatched = notFoundHandler(apiRoot, config.siteUrl);
  for (const [method, path] of MEMBER_PATHS_NOT_BUILT) app.route({ method, url: `${adminRoot}${path}`, handler: unmatched });
  await membersApiRoutes(app, base, config, { siteRoutes });
  readerScriptsRoutes(app, config.siteUrl);
  publicFilesRoutes(app, base);
  await emailsPublicRoutes(app, base, config.siteUrl);
  linkRedirectRoutes(app, base);
  if (config.adminApp.enabled) adminAppRoutes(app, { siteUrl: config.siteUrl, dir: config.adminApp.dir });
}
