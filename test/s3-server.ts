import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

/**
 * An S3-compatible server on a free loopback port for this test file, with one empty bucket. `settings()`
 * gives the configuration that points the service at it (call it once `beforeAll` has run).
 */
export function useS3Server() {
  const directory = mkdtempSync(path.join(tmpdir(), 'quire-s3-'));
  const bucket = 'quire-test';
  let server: { run(): Promise<{ port: number }>; close(): Promise<void> } | undefined;
  let endpoint = '';
  beforeAll(async () => {
    server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
    const { port } = await server!.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return {
    bucket,
    get endpoint() {
      return endpoint;
    },
    settings: (prefix = 'site/'): Record<string, string> => ({
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: prefix,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    }),
  };
}
