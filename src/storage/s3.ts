import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { contentTypeOf } from './content-type.js';
import { checkKey, MissingFileError, type Storage } from './storage.js';

export interface S3Options {
  bucket: string;
  region: string;
  /** An S3-compatible server's address (MinIO, R2, …); AWS's own when absent. */
  endpoint: string | null;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`, which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can hold several sites: `site-a/` → `site-a/images/…`. */
  prefix: string;
  /** Where the public fetches `<prefix><key>` (a CDN or the bucket's public address); files are served by this service when null. */
  publicUrl: string | null;
  /** The site's own `content/` address, used for `url()` when there is no public URL. */
  servedAt: string;
  /** Static credentials; the SDK's default chain (environment, profile, instance role) when absent. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

// The AWS SDK is loaded on first use: it costs about as much start-up time as the rest of the service.
let sdk: Promise<[typeof import('@aws-sdk/client-s3'), typeof import('@aws-sdk/lib-storage')]> | undefined;
const loadSdk = () => (sdk ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]));

/** Files in an S3-compatible bucket. Each PUT replaces an object whole, so readers never see a part. */
export function s3Storage(options: S3Options): Storage {
  const { bucket, prefix } = options;
  const objectKey = (key: string) => prefix + checkKey(key);
  const missing = (err: unknown) => {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
  };
  let client: S3Client | undefined;
  const connect = async () => {
    const [s3, storage] = await loadSdk();
    // On Node 20 the client warns once on stderr that SDK releases after January 2027 will need Node 22. The
    // version is pinned in package.json, so the advisory says nothing about this install; an operator on Node
    // 20 would only see a stray non-JSON line. Set the variable to "false" to see it.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    client ??= new s3.S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      // A copy: the SDK marks the object it is given, and the configuration's is frozen.
      ...(options.credentials ? { credentials: { ...options.credentials } } : {}),
    });
    return { s3, Upload: storage.Upload, client };
  };

  return {
    async write(key, data) {
      const target = { Bucket: bucket, Key: objectKey(key), ContentType: contentTypeOf(key) };
      const { s3, Upload, client } = await connect();
      // Private files get no public ACL; whether the others are public is the bucket policy's say (README).
      if (typeof data === 'string' || Buffer.isBuffer(data)) {
        await client.send(new s3.PutObjectCommand({ ...target, Body: data }));
        return;
      }
      // A multipart upload sends the stream in 5 MB parts as it arrives; an object appears only when it completes.
      await new Upload({ client, params: { ...target, Body: data }, queueSize: 2 }).done();
    },

    async read(key) {
      return (await this.open(key)).body;
    },

    async open(key, range) {
      const { s3, client } = await connect();
      try {
        const answer = await client.send(
          new s3.GetObjectCommand({ Bucket: bucket, Key: objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        const size = range ? Number(answer.ContentRange?.split('/')[1] ?? NaN) : (answer.ContentLength ?? NaN);
        return {
          body: answer.Body as Readable,
          size,
          modified: answer.LastModified ?? new Date(0),
          etag: answer.ETag ?? `"${size}"`,
        };
      } catch (err) {
        if (missing(err)) throw new MissingFileError(key);
        throw err;
      }
    },

    async stat(key) {
      const { s3, client } = await connect();
      try {
        const head = await client.send(new s3.HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0), etag: head.ETag ?? '""' };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },

    async exists(key) {
      return (await this.stat(key)) !== null;
    },

    async delete(key) {
      const { s3, client } = await connect();
      await client.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },

    async deleteAll(folder) {
      const keys = await this.list(folder);
      const { s3, client } = await connect();
      for (let i = 0; i < keys.length; i += 1000) {
        const Objects = keys.slice(i, i + 1000).map((key) => ({ Key: objectKey(key) }));
        await client.send(new s3.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects, Quiet: true } }));
      }
    },

    async list(folder) {
      const { s3, client } = await connect();
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new s3.ListObjectsV2Command({ Bucket: bucket, Prefix: `${objectKey(folder)}/`, ContinuationToken }));
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key.slice(prefix.length));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys;
    },

    url(key) {
      const path = checkKey(key).split('/').map(encodeURIComponent).join('/');
      return options.publicUrl ? options.publicUrl + prefix.split('/').map(encodeURIComponent).join('/') + path : options.servedAt + path;
    },
  };
}
