import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { useS3Server } from '../../test/s3-server.js';
import { localDiskStorage } from './local-disk.js';
import { s3Storage } from './s3.js';
import { BadKeyError, MissingFileError, type Storage } from './storage.js';

const s3 = useS3Server();
let run = 0;

/** Each test gets an empty store of the adapter under test. */
const adapters: [string, () => Storage][] = [
  ['local disk', () => localDiskStorage(path.join(mkdtempSync(path.join(tmpdir(), 'quire-storage-')), 'content'), 'https://example.com/blog/content/')],
  [
    'S3',
    () =>
      s3Storage({
        bucket: s3.bucket,
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        prefix: `run-${++run}/`,
        publicUrl: null,
        servedAt: 'https://example.com/blog/content/',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      }),
  ],
];

describe.each(adapters)('the storage port on %s', (_name, make) => {
  it('writes bytes, text and streams, reads and stats them, lists a folder and deletes', async () => {
    const storage = make();
    await storage.write('images/2026/01/a.txt', Buffer.from('bytes'));
    await storage.write('images/b.txt', 'text');
    await storage.write('media/c.txt', Readable.from([Buffer.from('str'), Buffer.from('eam')]));
    expect(await text(await storage.read('images/2026/01/a.txt'))).toBe('bytes');
    expect(await text(await storage.read('media/c.txt'))).toBe('stream');
    expect(await storage.stat('images/b.txt')).toMatchObject({ size: 4, etag: expect.stringMatching(/^".+"$/) });
    expect(await storage.stat('images/none.txt')).toBeNull();
    expect((await storage.list('images')).sort()).toEqual(['images/2026/01/a.txt', 'images/b.txt']);
    expect(await storage.list('nothing')).toEqual([]);

    await storage.delete('images/b.txt');
    await storage.delete('images/b.txt');
    expect(await storage.exists('images/b.txt')).toBe(false);
    await expect(storage.read('images/b.txt')).rejects.toThrow(MissingFileError);
    await expect(storage.open('images/b.txt')).rejects.toThrow(MissingFileError);
  });

  it('reads a byte range, and a changed file gets a new entity tag', async () => {
    const storage = make();
    await storage.write('files/r.bin', Buffer.from('0123456789'));
    const before = await storage.stat('files/r.bin');
    const part = await storage.open('files/r.bin', { start: 2, end: 5 });
    expect((await buffer(part.body)).toString()).toBe('2345');
    expect(part.size).toBe(10);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await storage.write('files/r.bin', Buffer.from('9876543210x'));
    expect((await storage.stat('files/r.bin'))!.etag).not.toBe(before!.etag);
  });

  it('deletes a folder and everything below it, and nothing beside it', async () => {
    const storage = make();
    await storage.write('themes/a/package.json', '{}');
    await storage.write('themes/a/partials/x.hbs', 'x');
    await storage.write('themes/ab/package.json', '{}');
    await storage.deleteAll('themes/a');
    expect(await storage.list('themes')).toEqual(['themes/ab/package.json']);
  });

  it.each(['../outside.txt', '/etc/passwd', 'a//b', 'a/./b', 'a\\..\\b', 'a\0b'])('refuses the key %j', async (key) => {
    const storage = make();
    await expect(storage.write(key, 'x')).rejects.toThrow(BadKeyError);
    await expect(storage.open(key)).rejects.toThrow(BadKeyError);
    await expect(storage.stat(key)).rejects.toThrow(BadKeyError);
    await expect(storage.list(key)).rejects.toThrow(BadKeyError);
    await expect(storage.deleteAll(key)).rejects.toThrow(BadKeyError);
  });

  it("gives the site's own content URL when there is no public URL", () => {
    expect(make().url('images/2026/01/my photo.jpg')).toBe('https://example.com/blog/content/images/2026/01/my%20photo.jpg');
  });
});

describe('S3 with a public URL', () => {
  it('points URLs at the public base, below the prefix', () => {
    const storage = s3Storage({
      bucket: 'b',
      region: 'us-east-1',
      endpoint: null,
      forcePathStyle: false,
      prefix: 'site a/',
      publicUrl: 'https://cdn.example.com/',
      servedAt: 'https://example.com/content/',
      credentials: null,
    });
    expect(storage.url('images/2026/01/a.jpg')).toBe('https://cdn.example.com/site%20a/images/2026/01/a.jpg');
  });
});
