import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { skipWithoutChromium, useChromium, watchPage } from '../browser.js';
import { lexicalOf, makePost, makeTag } from '../factories.js';
import { freePort } from '../support.js';
import { useTestSite } from '../test-site.js';

/**
 * The default theme of a fresh site in Chromium: home and a post with a feature image load with no console
 * error, every request (the theme's stylesheet, the image sizes, Portal, search, card assets) answered with
 * success from the site itself, no serious accessibility violation (axe-core), no sideways scrolling on a
 * phone, and the skip link first in the keyboard order.
 */
const require = createRequire(import.meta.url);
const axeSource = (require('axe-core') as { source: string }).source;
const port = await freePort();
const t = useTestSite({ settings: () => ({ SITE_URL: `http://127.0.0.1:${port}/` }) });

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/** axe-core's serious and critical findings on the page, WCAG 2.1 A and AA plus best practices. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(
    () =>
      (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResult> } }).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      }) as Promise<AxeResult>,
  );
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

if (!skipWithoutChromium('the default theme in a browser')) {
  describe('the default theme in a browser', () => {
    const chromium = useChromium();
    const origin = `http://127.0.0.1:${port}`;

    it('opens home and a post: no console error, every request answered by the site, no serious accessibility violation', async () => {
      await t.app.listen({ port, host: '127.0.0.1' });
      const image = await sharp({ create: { width: 1800, height: 1000, channels: 3, background: '#5a7d9a' } })
        .jpeg()
        .toBuffer();
      const upload = await t.admin.upload('/images/upload/', { file: { name: 'harbour.jpg', type: 'image/jpeg', data: image } });
      expect(upload.statusCode).toBe(201);
      const imageUrl: string = upload.json().images[0].url;
      await makeTag(t, { name: 'News', slug: 'news' });
      await makePost(t, { title: 'First light', slug: 'first-light', status: 'published', tags: ['News'], custom_excerpt: 'An older story.' });
      await makePost(t, {
        title: 'Seen in a browser',
        slug: 'seen',
        status: 'published',
        tags: ['News'],
        custom_excerpt: 'A post with a picture.',
        feature_image: imageUrl,
        feature_image_alt: 'A harbour at dawn',
        lexical: lexicalOf('A paragraph of the post, long enough to read.'),
      });

      const page = await chromium.browser.newPage();
      const { problems, answered } = watchPage(page);
      for (const url of [`${origin}/`, `${origin}/seen/`]) {
        const res = await page.goto(url, { waitUntil: 'networkidle' });
        expect(res?.status(), url).toBe(200);
        expect(await accessibilityProblems(page), url).toEqual([]);
      }
      expect(problems).toEqual([]);
      // Everything comes from the site itself: no font, script or picture from elsewhere.
      expect(answered.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
      expect(answered.some((url) => url.startsWith(`${origin}/assets/css/screen.css?v=`))).toBe(true);
      expect(answered.some((url) => url.includes('/content/images/size/w'))).toBe(true);
      expect(answered.some((url) => url.startsWith(`${origin}/public/portal/portal.min.js`))).toBe(true);

      // The dark colour scheme (the `color_scheme` setting) reads as well.
      await page.evaluate(() => document.documentElement.setAttribute('data-color-scheme', 'Dark'));
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(21, 23, 26)');
      expect(await accessibilityProblems(page), 'dark').toEqual([]);
      await page.close();
    }, 120_000);

    it('writes on the accent colour in black or white, whichever reads better', async () => {
      const page = await chromium.browser.newPage();
      const buttonColour = async (accent: string) => {
        const res = await t.admin.put('/settings/', { settings: [{ key: 'accent_color', value: accent }] });
        expect(res.statusCode).toBe(200);
        await page.goto(`${origin}/`, { waitUntil: 'load' });
        expect(await accessibilityProblems(page), accent).toEqual([]);
        return page.evaluate(() => getComputedStyle(document.querySelector('.site-actions .button')!).color);
      };
      expect(await buttonColour('#FF1A75')).toBe('lch(0 0 0)');
      expect(await buttonColour('#0b3d91')).toBe('lch(100 0 0)');
      expect(await buttonColour('#ffd60a')).toBe('lch(0 0 0)');
      await page.close();
    }, 60_000);

    it('fits a phone screen and puts the skip link first in the keyboard order', async () => {
      const page = await chromium.browser.newPage();
      await page.setViewportSize({ width: 360, height: 740 });
      for (const url of [`${origin}/`, `${origin}/seen/`]) {
        await page.goto(url, { waitUntil: 'load' });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, url).toBeLessThanOrEqual(0);
      }
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        const box = element.getBoundingClientRect();
        return { text: element.textContent, href: element.getAttribute('href'), visible: box.top >= 0 && box.height > 0 };
      });
      expect(focused).toEqual({ text: 'Skip to content', href: '#main', visible: true });
      await page.close();
    }, 60_000);
  });
}
