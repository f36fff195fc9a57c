import type { Config } from '../config.js';
import { localDiskStorage } from './local-disk.js';
import { s3Storage } from './s3.js';
import type { Storage } from './storage.js';

/**
 * The storage the configuration names, made in this one place for the server and the CLI: local disk under
 * `CONTENT_DIR` (default), or an S3-compatible bucket (`STORAGE=s3`). Public files are at `<SITE_URL>content/`
 * (Ghost's paths, served by this service) unless the bucket has a public URL.
 */
export function storageFor(config: Pick<Config, 'contentDir' | 'siteUrl' | 's3'>): Storage {
  const servedAt = `${config.siteUrl}content/`;
  if (config.s3) return s3Storage({ ...config.s3, servedAt });
  return localDiskStorage(config.contentDir, servedAt);
}
