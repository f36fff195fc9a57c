import { describe, expect, it } from 'vitest';
import { skipWithoutChromium, useChromium, watchPage } from '../browser.js';
import { makePost, makeTag } from '../factories.js';
import { freePort } from '../support.js';
import { useTestSite } from '../test-site.js';
import { installTheme } from './site-support.js';

/**
 * Source's home page and a post in a real browser: no console error, and every request the page makes
 * answered with success (Portal's and search's own scripts included); the announcement bar as a visitor sees it.
 */
// The site's address is known before the app is built: the pages print it (Portal's and search's script URLs).
const port = await freePort();
const t = useTestSite({ settings: () => ({ SITE_URL: `http://127.0.0.1:${port}/` }) });

if (!skipWithoutChromium('the site in a browser')) {
  describe('the site in a browser', () => {
    const chromium = useChromium();
    let origin: string;

    it('opens the home page and a post with no console error and every request answered with success', async () => {
      await t.app.listen({ port, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${port}`;
      // No picture from the internet: this machine has no way out.
      await t.admin.put('/settings/', { settings: [{ key: 'cover_image', value: '' }] });
      await installTheme(t, 'source');
      await makeTag(t, { name: 'News', slug: 'news' });
      await makePost(t, { title: 'Seen in a browser', slug: 'seen', status: 'published', tags: ['News'], custom_excerpt: 'A post.' });
      // A page each: Portal's own requests can start after the network first goes quiet, and going on to the
      // next address in the same page would abort them (net::ERR_ABORTED) rather than let them be answered.
      const problems: string[] = [];
      const answered: string[] = [];
      for (const url of [`${origin}/`, `${origin}/seen/`]) {
        const page = await chromium.browser.newPage();
        const watched = watchPage(page);
        const res = await page.goto(url, { waitUntil: 'networkidle' });
        expect(res?.status(), url).toBe(200);
        await page.waitForLoadState('networkidle');
        problems.push(...watched.problems);
        answered.push(...watched.answered);
        await page.close();
      }
      expect(problems).toEqual([]);
      expect(answered).toContain(`${origin}/seen/`);
      expect(answered.some((url) => url.startsWith(`${origin}/assets/built/screen.css`))).toBe(true);
      expect(answered.some((url) => url.startsWith(`${origin}/public/cards.min.js`))).toBe(true);
    }, 120_000);

    it('shows the announcement bar to a visitor, from the script and the Members API this site serves', async () => {
      const settings = [
        { key: 'announcement_content', value: '<p>Big <strong>news</strong> today</p>' },
        { key: 'announcement_visibility', value: ['visitors'] },
      ];
      expect((await t.admin.put('/settings/', { settings })).statusCode).toBe(200);
      const page = await chromium.browser.newPage();
      const { problems, answered } = watchPage(page);
      await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
      await expect.poll(() => page.locator('#announcement-bar-root').innerText(), { timeout: 15_000 }).toContain('Big news today');
      expect(problems).toEqual([]);
      expect(answered).toContain(`${origin}/members/api/announcement/`);
      await page.close();
    }, 60_000);
  });
}
