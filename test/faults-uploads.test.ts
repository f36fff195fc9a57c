import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';
import { ghostError } from './support.js';
import { sweepTemporaryFolders } from '../src/http/upload.js';

/** Upload failures that are the server's, and the temporary files uploads leave. */
const t = useTestSite();

/** A small filesystem that fills up: a tmpfs of `bytes`, or null where this process may not mount one. */
function tinyDisk(bytes: number): { dir: string; remove(): void } | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-tiny-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    remove() {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('temporary upload folders', () => {
  it('are swept at start when the process that made them is gone, and only then', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-sweep-test-'));
    try {
      // 2^22 + 1 is above every Linux pid_max: no such process.
      const dead = 'quire-upload-4194305-abc';
      const ours = `quire-import-${process.pid}-def`; // a previous life of a process with our id (a restarted container)
      const live = `quire-upload-${process.ppid}-ghi`; // another instance still running
      const other = 'someone-elses-folder';
      for (const name of [dead, ours, live, other]) mkdirSync(path.join(dir, name));
      expect(await sweepTemporaryFolders(dir)).toBe(2);
      expect(readdirSync(dir).sort()).toEqual([live, other].sort());
      // Whatever its id says, a leftover older than a day goes.
      expect(await sweepTemporaryFolders(dir, Date.now() + 25 * 60 * 60 * 1000)).toBe(1);
      expect(readdirSync(dir)).toEqual([other]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are removed after the request', async () => {
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith(`quire-upload-${process.pid}-`));
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#0c3' } })
      .png()
      .toBuffer();
    expect((await t.admin.upload('/images/upload/', { file: { name: 'pic.png', type: 'image/png', data: png } })).statusCode).toBe(201);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`quire-upload-${process.pid}-`))).toEqual(before);
  });
});

describe('an upload the server cannot store', () => {
  const disk = tinyDisk(400 * 1024);
  it.skipIf(!disk)('answers an opaque 500 naming no path when the temporary folder is full, not a 400 blaming the image', async () => {
    // Noise does not compress: ~270 KB as PNG, which fits once but not twice (the resized copy).
    const png = await sharp(randomBytes(300 * 300 * 3), { raw: { width: 300, height: 300, channels: 3 } })
      .png()
      .toBuffer();
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = disk!.dir;
    try {
      const res = await t.admin.upload('/images/upload/', { file: { name: 'noise.png', type: 'image/png', data: png } });
      expect(res.statusCode).toBe(500);
      expect(ghostError(res)).toMatchObject({ type: 'InternalServerError' });
      expect(res.body).not.toContain(disk!.dir);
      expect(res.body).not.toMatch(/space|ENOSPC/i);
      // Nothing left behind on the full disk.
      expect(existsSync(disk!.dir) && readdirSync(disk!.dir)).toEqual([]);
    } finally {
      process.env.TMPDIR = saved;
      if (saved === undefined) delete process.env.TMPDIR;
      disk!.remove();
    }
  });
});
