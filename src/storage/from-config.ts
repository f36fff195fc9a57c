import type { Config } from '../config.js';
import { localDiskStorage } from './local-disk.js';
import type { Storage } from './storage.js';

/**
 * The storage the configuration names, made in this one place for the server and the CLI: local disk under
 * `CONTENT_DIR`, public files at `<SITE_URL>content/` (Ghost's paths). S3 arrives with the files issue.
 */
export function storageFor(config: Pick<Config, 'contentDir' | 'siteUrl'>): Storage {
  return localDiskStorage(config.contentDir, `${config.siteUrl}content/`);
}
