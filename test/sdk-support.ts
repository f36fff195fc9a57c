import { beforeAll } from 'vitest';
import GhostAdminAPI from '@tryghost/admin-api';
import GhostContentAPI from '@tryghost/content-api';
import type { TestSite } from './test-site.js';

/** The official SDKs have no types. */
type Sdk = any;

/**
 * The official Admin API and Content API SDKs against `t` listening on a port of its own, as a Ghost client
 * calls it (Admin with the integration's key); `base` is that server's origin. Filled in before the tests run.
 */
export function useSdks(t: TestSite): { base: string; admin: Sdk; content: Sdk } {
  const sdks = { base: '', admin: undefined as Sdk, content: undefined as Sdk };
  beforeAll(async () => {
    sdks.base = await t.listen();
    sdks.admin = new GhostAdminAPI({ url: sdks.base, key: t.keys.adminKey, version: 'v5.0' });
    sdks.content = new GhostContentAPI({ url: sdks.base, key: t.keys.contentKey, version: 'v5.0' });
  });
  return sdks;
}
