import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installAdminBuild } from '../src/admin-app/fetch.js';
import { ADMIN_PACKAGE } from '../src/admin-app/pin.js';
import { ConfigError, DEFAULT_ADMIN_APP_DIR, parseConfig } from '../src/config.js';
import { ADMIN, ghostError, startTestApp, type TestApp } from './support.js';

/**
 * Serving Ghost's admin app at `<site>ghost/`, with Ghost's headers and redirects (as Ghost 5.130.6 answers
 * them, side by side), from a build folder made here: a small stand-in installed from a tarball by the same
 * code that installs the real one. The real build in Chromium is test/admin-app.e2e.test.ts.
 */
const INDEX = '<!DOCTYPE html><html><head><title>Ghost</title></head><body><script src="assets/ghost-abc.js"></script></body></html>';
const BIG_SCRIPT = 'window.vendor = 1;\n'.repeat(200);
const PRIVATE = 'no-cache, private, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0';

const scratch = mkdtempSync(path.join(tmpdir(), 'quire-admin-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A gzipped tar shaped like the `ghost` package: package.json, LICENSE and core/built/admin/. */
function fakeGhostTarball(version = ADMIN_PACKAGE.version): { tarball: Buffer; integrity: string } {
  const root = mkdtempSync(path.join(scratch, 'pkg-'));
  const admin = path.join(root, 'package/core/built/admin');
  mkdirSync(path.join(admin, 'assets/admin-x-settings'), { recursive: true });
  writeFileSync(path.join(root, 'package/package.json'), JSON.stringify({ name: 'ghost', version }));
  writeFileSync(path.join(root, 'package/LICENSE'), 'MIT');
  writeFileSync(path.join(root, 'package/core/server.js'), 'not part of the admin build');
  writeFileSync(path.join(admin, 'index.html'), INDEX);
  writeFileSync(path.join(admin, 'assets/ghost-abc.js'), 'console.log("admin");');
  writeFileSync(path.join(admin, 'assets/vendor-def.js'), BIG_SCRIPT);
  writeFileSync(path.join(admin, 'assets/admin-x-settings/index-BVxh86CD.mjs'), 'export const settings = 1;');
  const file = path.join(root, 'ghost.tgz');
  execFileSync('tar', ['czf', file, '-C', root, 'package']);
  const tarball = readFileSync(file);
  return { tarball, integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}` };
}

describe('installing a build from the package tarball', () => {
  it('keeps only the admin build and the licence, with a manifest, after checking the integrity', () => {
    const { tarball, integrity } = fakeGhostTarball();
    const dir = path.join(scratch, 'installed');
    const result = installAdminBuild(tarball, dir, { ...ADMIN_PACKAGE, integrity });
    expect(result).toMatchObject({ version: ADMIN_PACKAGE.version, files: 5 });
    // Text assets of 1 KB or more get a gzipped copy beside them.
    expect(gunzipSync(readFileSync(path.join(dir, 'assets/vendor-def.js.gz'))).toString()).toBe(BIG_SCRIPT);
    expect(existsSync(path.join(dir, 'assets/ghost-abc.js.gz'))).toBe(false);
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).toBe(INDEX);
    expect(existsSync(path.join(dir, 'assets/admin-x-settings/index-BVxh86CD.mjs'))).toBe(true);
    expect(readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toBe('MIT');
    expect(existsSync(path.join(dir, 'server.js'))).toBe(false);
    expect(JSON.parse(readFileSync(path.join(dir, 'quire-admin.json'), 'utf8'))).toMatchObject({ package: 'ghost', version: ADMIN_PACKAGE.version, integrity });
  });

  it('refuses a tarball whose hash is not the pinned one, and leaves the installed build as it was', () => {
    const good = fakeGhostTarball();
    const dir = path.join(scratch, 'kept');
    installAdminBuild(good.tarball, dir, { ...ADMIN_PACKAGE, integrity: good.integrity });
    const other = fakeGhostTarball();
    writeFileSync(path.join(dir, 'marker'), 'old build');
    // Another digest of the same length (one character changed, whatever the first one was).
    const wrong = good.integrity.replace(/^sha512-(.)/, (_m, c: string) => `sha512-${c === 'A' ? 'B' : 'A'}`);
    expect(() => installAdminBuild(other.tarball, dir, { ...ADMIN_PACKAGE, integrity: wrong })).toThrow(/not the pinned/);
    expect(readFileSync(path.join(dir, 'marker'), 'utf8')).toBe('old build');
  });

  it('refuses a tarball of another version', () => {
    const { tarball, integrity } = fakeGhostTarball('5.0.0');
    expect(() => installAdminBuild(tarball, path.join(scratch, 'other-version'), { ...ADMIN_PACKAGE, integrity })).toThrow(/holds version 5\.0\.0/);
    expect(existsSync(path.join(scratch, 'other-version'))).toBe(false);
  });
});

describe('the admin app at <site>ghost/', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    const { tarball, integrity } = fakeGhostTarball();
    dir = path.join(scratch, 'served');
    installAdminBuild(tarball, dir, { ...ADMIN_PACKAGE, integrity });
    t = await startTestApp({ ADMIN_APP_DIR: dir });
  });
  afterAll(async () => t?.close());

  it("serves index.html with Ghost's headers: never cached, same-origin frames only, a content hash as its tag", async () => {
    const res = await t.app.inject({ url: '/ghost/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX);
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(res.headers['cache-control']).toBe(PRIVATE);
    expect(res.headers['x-frame-options']).toBe('sameorigin');
    expect(res.headers.etag).toBe(createHash('md5').update(INDEX).digest('hex'));
    const again = await t.app.inject({ url: '/ghost/', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const head = await t.app.inject({ method: 'HEAD', url: '/ghost/' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['x-frame-options']).toBe('sameorigin');
  });

  it('serves assets with a year of immutable caching and JavaScript types for .js and .mjs', async () => {
    const js = await t.app.inject({ url: '/ghost/assets/ghost-abc.js' });
    expect(js.statusCode).toBe(200);
    expect(js.body).toBe('console.log("admin");');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const mjs = await t.app.inject({ url: '/ghost/assets/admin-x-settings/index-BVxh86CD.mjs' });
    expect(mjs.statusCode).toBe(200);
    expect(mjs.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const cached = await t.app.inject({ url: '/ghost/assets/ghost-abc.js', headers: { 'if-none-match': String(js.headers.etag) } });
    expect(cached.statusCode).toBe(304);
  });

  it('sends the gzipped copy to browsers that take gzip, as Ghost compresses', async () => {
    const zipped = await t.app.inject({ url: '/ghost/assets/vendor-def.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(BIG_SCRIPT);
    const plain = await t.app.inject({ url: '/ghost/assets/vendor-def.js', headers: { 'accept-encoding': 'gzip;q=0, br' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_SCRIPT);
  });

  it("answers a missing asset with Express's 404 page, and never leaves the assets folder", async () => {
    for (const url of ['/ghost/assets/..%2findex.html', '/ghost/assets/..%2f..%2fquire-admin.json', '/ghost/assets/%2e%2e/index.html']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).not.toBe(200);
      expect(res.body, url).not.toContain('<title>Ghost</title>');
    }
    for (const url of ['/ghost/assets/nope.js', '/ghost/assets/..%2findex.html', '/ghost/assets/admin-x-settings']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toContain('<pre>Not Found</pre>');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'");
      expect(res.headers['cache-control']).toBe(PRIVATE);
    }
  });

  it('redirects as Ghost: a trailing slash (301), lower case (301), other paths to client routes (302)', async () => {
    const cases: [string, number, string, string][] = [
      ['/ghost', 301, '/ghost/', 'public, max-age=31536000'],
      ['/Ghost/', 301, '/ghost/', 'public, max-age=31536000'],
      ['/ghost/posts', 301, '/ghost/posts/', 'public, max-age=31536000'],
      ['/ghost/posts/', 302, '/ghost/#/posts/', PRIVATE],
      ['/ghost/editor/post/?ref=1', 302, '/ghost/#/editor/post/?ref=1', PRIVATE],
      ['/ghost/setup/', 302, '/ghost/#/setup/', PRIVATE],
    ];
    for (const [url, status, location, cacheControl] of cases) {
      const res = await t.app.inject({ url });
      expect([res.statusCode, res.headers.location, res.headers['cache-control']], url).toEqual([status, location, cacheControl]);
    }
  });

  it('leaves /ghost/api/ to the API, matched or not, and does not redirect /admin/ (Ghost does not)', async () => {
    const site = await t.app.inject({ url: `${ADMIN}/site/` });
    expect(site.statusCode).toBe(200);
    const missing = await t.app.inject({ url: `${ADMIN}/no-such-thing/` });
    expect(ghostError(missing)).toMatchObject({
      type: 'NotFoundError',
      message: 'Resource not found: the Admin API has no endpoint GET /ghost/api/admin/no-such-thing/.',
    });
    expect(missing.headers['content-version']).toBe('v5.130');
    const content = await t.app.inject({ url: '/ghost/api/nothing/' });
    expect(ghostError(content).type).toBe('NotFoundError');
    expect((await t.app.inject({ url: '/admin/' })).statusCode).toBe(404);
  });

  it("answers Ghost's comments auth frame with 204", async () => {
    const res = await t.app.inject({ url: '/ghost/auth-frame/' });
    expect(res.statusCode).toBe(204);
    expect(res.headers['cache-control']).toBe('public, max-age=0');
  });
});

describe('under a sub-directory SITE_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    const { tarball, integrity } = fakeGhostTarball();
    const dir = path.join(scratch, 'subdir');
    installAdminBuild(tarball, dir, { ...ADMIN_PACKAGE, integrity });
    t = await startTestApp({ ADMIN_APP_DIR: dir, SITE_URL: 'http://127.0.0.1:2368/blog/' });
  });
  afterAll(async () => t?.close());

  it('serves the app, its assets and its redirects under <site path>ghost/', async () => {
    expect((await t.app.inject({ url: '/blog/ghost/' })).body).toBe(INDEX);
    expect((await t.app.inject({ url: '/blog/ghost/assets/ghost-abc.js' })).statusCode).toBe(200);
    const bare = await t.app.inject({ url: '/blog/ghost' });
    expect([bare.statusCode, bare.headers.location]).toEqual([301, '/blog/ghost/']);
    const route = await t.app.inject({ url: '/blog/ghost/posts/' });
    expect([route.statusCode, route.headers.location]).toEqual([302, '/blog/ghost/#/posts/']);
    expect((await t.app.inject({ url: '/blog/ghost/api/admin/site/' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/ghost/' })).statusCode).toBe(404);
  });
});

describe('without a build, and turned off', () => {
  let missing: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    missing = await startTestApp({ ADMIN_APP_DIR: path.join(scratch, 'never-fetched') });
    off = await startTestApp({ ADMIN_APP: 'false' });
  });
  afterAll(async () => {
    await missing?.close();
    await off?.close();
  });

  it('answers ghost/ with a page saying how to fetch the build, and the API still works', async () => {
    const res = await missing.app.inject({ url: '/ghost/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe(PRIVATE);
    expect(res.body).toContain('npm run admin:fetch');
    expect(res.body).toContain(`ghost@${ADMIN_PACKAGE.version}`);
    expect(res.body).not.toContain('never-fetched');
    expect((await missing.app.inject({ url: '/ghost/assets/ghost-abc.js' })).statusCode).toBe(404);
    expect((await missing.app.inject({ url: `${ADMIN}/site/` })).statusCode).toBe(200);
  });

  it('with ADMIN_APP=false serves nothing at ghost/ but the API', async () => {
    for (const url of ['/ghost/', '/ghost', '/ghost/assets/ghost-abc.js', '/ghost/posts/']) {
      const res = await off.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['x-frame-options'], url).toBeUndefined();
    }
    expect((await off.app.inject({ url: `${ADMIN}/site/` })).statusCode).toBe(200);
  });
});

describe('settings', () => {
  it('ADMIN_APP is a boolean and ADMIN_APP_DIR a folder from the working directory; the default is the install', () => {
    expect(parseConfig({}).adminApp).toEqual({ enabled: true, dir: DEFAULT_ADMIN_APP_DIR });
    expect(DEFAULT_ADMIN_APP_DIR).toBe(path.resolve(import.meta.dirname, '..', 'vendor', 'ghost-admin'));
    expect(parseConfig({ ADMIN_APP: 'off', ADMIN_APP_DIR: 'builds/admin' }, '/srv/quire').adminApp).toEqual({ enabled: false, dir: '/srv/quire/builds/admin' });
    expect(() => parseConfig({ ADMIN_APP: 'maybe' })).toThrow(new ConfigError('ADMIN_APP: must be true or false (got "maybe")'));
  });
});

describe('quire admin fetch', () => {
  const saved = { ...process.env };
  afterAll(() => {
    for (const key of ['ADMIN_APP_DIR', 'ADMIN_APP', 'npm_config_registry']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it('during npm install, a registry that cannot be reached leaves the install working and says how to fetch later', async () => {
    process.env.ADMIN_APP_DIR = path.join(scratch, 'offline');
    // A closed port on this machine: npm pack fails as it would offline.
    process.env.npm_config_registry = 'http://127.0.0.1:9/';
    const { runAdmin } = await import('../src/cli-admin.js');
    const lines = await runAdmin(['fetch', '--install']);
    expect(lines.join('\n')).toMatch(/admin app was not fetched \(npm pack ghost@5\.130\.6 failed: ECONNREFUSED, .*127\.0\.0\.1:9/);
    expect(lines.join('\n')).toContain('npm run admin:fetch');
    expect(existsSync(path.join(scratch, 'offline'))).toBe(false);
    // Asked for by hand, the same failure is an error.
    await expect(runAdmin(['fetch'])).rejects.toThrow(/npm pack ghost@5\.130\.6 failed/);
    process.env.ADMIN_APP = 'false';
    expect(await runAdmin(['fetch', '--install'])).toEqual(['quire: ADMIN_APP=false, the admin app is not fetched']);
  }, 120_000);
});
