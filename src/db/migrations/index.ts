import type { MigrationFactory } from './factory.js';
import { foundation } from './0001-foundation.js';
import { posts } from './0002-posts.js';
import { staff } from './0003-staff.js';
import { postsReadingTime } from './0004-posts-reading-time.js';
import { outbox } from './0005-outbox.js';
import { cacheVersions } from './0006-cache-versions.js';
import { allSettings } from './0007-all-settings.js';
import { members } from './0008-members.js';
import { defaultTheme } from './0009-default-theme.js';
import { clientResources } from './0010-client-resources.js';
import { postsSearch } from './0011-posts-search.js';
import { webhooks } from './0012-webhooks.js';
import { postsMembers } from './0013-posts-members.js';
import { jobs } from './0014-jobs.js';
import { memberEvents } from './0015-member-events.js';
import { webhookDeliveryOrder } from './0016-webhook-delivery-order.js';
import { contentVersion } from './0017-content-version.js';
import { secretsKeyCheck } from './0018-secrets-key-check.js';
import { membersApi } from './0019-members-api.js';
import { ghost6Import } from './0020-ghost6-import.js';
import { frontendIntegration } from './0021-frontend-integration.js';
import { emailSending } from './0022-email-sending.js';
import { emailLinks } from './0023-email-links.js';
import { customThemeSettings } from './0024-custom-theme-settings.js';

/**
 * Every migration in order. Names sort in the order they must run; Kysely's migrator refuses to run
 * when an applied migration is missing from this list.
 */
export const MIGRATIONS: [name: string, factory: MigrationFactory][] = [
  ['0001-foundation', foundation],
  ['0002-posts', posts],
  ['0003-staff', staff],
  ['0004-posts-reading-time', postsReadingTime],
  ['0005-outbox', outbox],
  ['0006-cache-versions', cacheVersions],
  ['0007-all-settings', allSettings],
  ['0008-members', members],
  ['0009-default-theme', defaultTheme],
  ['0010-client-resources', clientResources],
  ['0011-posts-search', postsSearch],
  ['0012-webhooks', webhooks],
  ['0013-posts-members', postsMembers],
  ['0014-jobs', jobs],
  ['0015-member-events', memberEvents],
  ['0016-webhook-delivery-order', webhookDeliveryOrder],
  ['0017-content-version', contentVersion],
  ['0018-secrets-key-check', secretsKeyCheck],
  ['0019-members-api', membersApi],
  ['0020-ghost6-import', ghost6Import],
  ['0021-frontend-integration', frontendIntegration],
  ['0022-email-sending', emailSending],
  ['0023-email-links', emailLinks],
  ['0024-custom-theme-settings', customThemeSettings],
];
