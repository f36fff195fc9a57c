import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';
import { packageDir, readerScripts } from '../src/resources/reader-scripts/reader-scripts.urls.js';

/** Portal, Search and the announcement bar are served by the site from their npm packages, not from a CDN. */
const t = useTestSite({ setup: 'none' });

describe('reader scripts at <site>/public/', () => {
  it.each([
    ['/public/portal/portal.min.js', '@tryghost/portal', 'umd/portal.min.js', 'application/javascript; charset=utf-8'],
    ['/public/sodo-search/sodo-search.min.js', '@tryghost/sodo-search', 'umd/sodo-search.min.js', 'application/javascript; charset=utf-8'],
    ['/public/sodo-search/main.css', '@tryghost/sodo-search', 'umd/main.css', 'text/css; charset=utf-8'],
    ['/public/announcement-bar/announcement-bar.min.js', '@tryghost/announcement-bar', 'umd/announcement-bar.min.js', 'application/javascript; charset=utf-8'],
  ])('%s is the package file, gzipped when asked, with a strong ETag', async (url, pkg, file, type) => {
    const original = readFileSync(`${packageDir(pkg)}/${file}`);
    const plain = await t.app.inject({ url });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe(type);
    expect(plain.headers['access-control-allow-origin']).toBe('*');
    expect(plain.rawPayload.equals(original)).toBe(true);
    const zipped = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).equals(original)).toBe(true);
    const again = await t.app.inject({ url, headers: { 'if-none-match': String(plain.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('names the URLs and versions ghost_head prints', () => {
    const scripts = readerScripts('https://example.com/blog/');
    expect(scripts.portal.scriptUrl).toBe('https://example.com/blog/public/portal/portal.min.js');
    expect(scripts.portal.version).toMatch(/^2\.71\./);
    expect(scripts.sodoSearch).toMatchObject({
      scriptUrl: 'https://example.com/blog/public/sodo-search/sodo-search.min.js',
      stylesUrl: 'https://example.com/blog/public/sodo-search/main.css',
    });
    expect(scripts.sodoSearch.version).toMatch(/^1\.8\./);
  });
});
