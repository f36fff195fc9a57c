import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { localDiskStorage } from './local-disk.js';
import { BadKeyError, MissingFileError } from './storage.js';

const setUp = () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'quire-storage-'));
  const root = path.join(parent, 'content');
  return { parent, root, storage: localDiskStorage(root, 'https://example.com/blog/content/') };
};
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();

describe('local disk storage', () => {
  it('writes bytes, text and streams under their key, reads them back, and deletes them', async () => {
    const { root, storage } = setUp();
    await storage.write('images/2026/01/a.txt', Buffer.from('bytes'));
    await storage.write('b.txt', 'text');
    await storage.write('media/c.txt', Readable.from(['str', 'eam']));
    expect(filesUnder(root)).toEqual(['b.txt', 'images/2026/01/a.txt', 'media/c.txt']);
    expect(await text(await storage.read('images/2026/01/a.txt'))).toBe('bytes');
    expect(await text(await storage.read('media/c.txt'))).toBe('stream');
    expect(await storage.exists('b.txt')).toBe(true);

    await storage.delete('b.txt');
    await storage.delete('b.txt');
    expect(await storage.exists('b.txt')).toBe(false);
    await expect(storage.read('b.txt')).rejects.toThrow(MissingFileError);
  });

  it('replaces a file whole, leaving no temporary file, also when a stream fails half-way', async () => {
    const { root, storage } = setUp();
    await storage.write('a.txt', 'first');
    await storage.write('a.txt', 'second');
    expect(await text(await storage.read('a.txt'))).toBe('second');
    const failing = new Readable({
      read() {
        this.push('partial');
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.write('a.txt', failing)).rejects.toThrow('client went away');
    expect(await text(await storage.read('a.txt'))).toBe('second');
    expect(filesUnder(root)).toEqual(['a.txt']);
  });

  it("makes private files readable by the service's user only", async () => {
    const { root, storage } = setUp();
    await storage.write('data/backup.json', '{}', { private: true });
    await storage.write('images/public.png', 'png');
    expect(statSync(path.join(root, 'data/backup.json')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(root, 'images/public.png')).mode & 0o777).toBe(0o644);
  });

  it.each([
    '',
    '../outside.txt',
    'images/../../outside.txt',
    '..',
    '/etc/passwd',
    'C:/outside.txt',
    'a//b.txt',
    './a.txt',
    'a/./b.txt',
    'a/',
    'a\\..\\..\\outside.txt',
    'a\0b',
    'line\nbreak',
  ])('refuses the key %j in every operation and writes nothing', async (key) => {
    const { parent, storage } = setUp();
    await expect(storage.write(key, 'x')).rejects.toThrow(BadKeyError);
    await expect(storage.read(key)).rejects.toThrow(BadKeyError);
    await expect(storage.exists(key)).rejects.toThrow(BadKeyError);
    await expect(storage.delete(key)).rejects.toThrow(BadKeyError);
    expect(() => storage.url(key)).toThrow(BadKeyError);
    expect(filesUnder(parent)).toEqual([]);
  });

  it('gives the public URL of a key under the public base, each segment encoded', () => {
    const { storage } = setUp();
    expect(storage.url('images/2026/01/my photo#1.jpg')).toBe('https://example.com/blog/content/images/2026/01/my%20photo%231.jpg');
  });
});
