import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { makePost } from './factories.js';
import { useTestSite } from './test-site.js';
import { assertChromium, CHROMIUM, skipWithoutChromium } from './browser.js';

/**
 * A real browser on another origin reads the Content API, as a headless front end's visitors do. Chromium
 * comes from the system's packages (`apt-get install chromium`), not from npm: CI (`CI` set, as `.ci/run`
 * does) installs it and fails here without it; a developer without it gets a skipped test saying so.
 */

const t = useTestSite();

if (!skipWithoutChromium('browser on another origin')) {
  describe('browser on another origin', () => {
    let api: string;
    let front: Server;
    let frontUrl: string;
    let profile: string;
    let browser: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      assertChromium();
      api = await t.listen();
      await makePost(t, { title: 'Seen from afar', status: 'published' });
      // The front end's own origin: another host name (mapped to this machine) and port.
      front = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>front</title>'));
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      const address = front.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      frontUrl = `http://front.example:${address.port}/`;
      profile = mkdtempSync(path.join(tmpdir(), 'quire-chromium-'));
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        timeout: 60_000,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--host-resolver-rules=MAP front.example 127.0.0.1',
        ],
      });
      page = await browser.newPage();
      await page.goto(frontUrl);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      if (front) await new Promise((resolve) => front.close(resolve));
      if (profile) rmSync(profile, { recursive: true, force: true });
    });

    /** `fetch` run inside the page: the browser enforces CORS, a blocked answer is a TypeError. */
    const fetchInPage = (url: string) =>
      page.evaluate(async (target) => {
        try {
          const res = await fetch(target, { headers: { 'Accept-Version': 'v5.0' } });
          return { status: res.status, body: await res.json() };
        } catch (err) {
          return { blocked: String(err) };
        }
      }, url);

    it('fetches Content API posts and settings', async () => {
      expect(await page.evaluate(() => location.origin)).toBe(new URL(frontUrl).origin);
      const posts = await fetchInPage(`${api}/ghost/api/content/posts/?key=${t.keys.contentKey}`);
      expect(posts).toMatchObject({ status: 200, body: { posts: [{ title: 'Seen from afar' }] } });
      const settings = await fetchInPage(`${api}/ghost/api/content/settings/?key=${t.keys.contentKey}`);
      expect(settings).toMatchObject({ status: 200, body: { settings: { title: 'Test Site', lang: 'en' } } });
    });

    it('reads Content API errors too, and is kept out of the Admin API', async () => {
      const refused = await fetchInPage(`${api}/ghost/api/content/posts/?key=0123456789abcdef0123456789`);
      expect(refused).toMatchObject({ status: 401, body: { errors: [{ type: 'UnauthorizedError' }] } });
      const unknown = await fetchInPage(`${api}/ghost/api/content/nothing/?key=${t.keys.contentKey}`);
      expect(unknown).toMatchObject({ status: 406 });
      expect(await fetchInPage(`${api}/ghost/api/admin/site/`)).toHaveProperty('blocked');
    });
  });
}
