import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext } from 'playwright-core';
import { makePost, makeTag } from '../factories.js';
import { freePort } from '../support.js';
import { useTestSite } from '../test-site.js';
import { installTheme } from './site-support.js';

/**
 * Source's home page and a post in a real browser: no console error, and every request the page makes
 * answered with success (Portal's and search's own scripts included). Chromium comes from the system's packages
 * (as in browser-cors.e2e.test.ts): required in CI, skipped with a message elsewhere.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const required = Boolean(process.env.CI);

// The site's address is known before the app is built: the pages print it (Portal's and search's script URLs).
const port = await freePort();
const t = useTestSite({ settings: () => ({ SITE_URL: `http://127.0.0.1:${port}/` }) });

if (!available && !required) {
  describe('the site in a browser', () => {
    it.skip(`skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH); CI runs it`, () => {});
  });
} else {
  describe('the site in a browser', () => {
    let profile: string;
    let browser: BrowserContext;
    let origin: string;

    beforeAll(async () => {
      if (!available) throw new Error(`Chromium is required in CI and missing at ${CHROMIUM}: apt-get install -y chromium`);
      profile = mkdtempSync(path.join(tmpdir(), 'quire-chromium-'));
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        timeout: 60_000,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
    });

    it('opens the home page and a post with no console error and every request answered with success', async () => {
      await t.app.listen({ port, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${port}`;
      // No picture from the internet: this machine has no way out.
      await t.admin.put('/settings/', { settings: [{ key: 'cover_image', value: '' }] });
      await installTheme(t, 'source');
      await makeTag(t, { name: 'News', slug: 'news' });
      await makePost(t, { title: 'Seen in a browser', slug: 'seen', status: 'published', tags: ['News'], custom_excerpt: 'A post.' });
      const page = await browser.newPage();
      const problems: string[] = [];
      const answered: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
      page.on('response', (response) => {
        answered.push(response.url());
        if (!response.ok()) problems.push(`${response.status()}: ${response.url()}`);
      });
      for (const url of [`${origin}/`, `${origin}/seen/`]) {
        const res = await page.goto(url, { waitUntil: 'networkidle' });
        expect(res?.status(), url).toBe(200);
      }
      expect(problems).toEqual([]);
      expect(answered).toContain(`${origin}/seen/`);
      expect(answered.some((url) => url.startsWith(`${origin}/assets/built/screen.css`))).toBe(true);
      expect(answered.some((url) => url.startsWith(`${origin}/public/cards.min.js`))).toBe(true);
      await page.close();
    }, 120_000);
  });
}
