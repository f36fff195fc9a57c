import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_APP_DIR } from '../../src/config.js';
import { adminBuildState, fetchAdminBuild } from '../../src/admin-app/fetch.js';
import { ADMIN_PACKAGE } from '../../src/admin-app/pin.js';
import { skipWithoutChromium, useChromium } from '../browser.js';
import { freePort, OWNER } from '../support.js';
import { useTestSite } from '../test-site.js';
import { SETTINGS_DEMO, zipOfFiles } from '../fixtures/themes/broken-themes.mjs';

/**
 * Ghost's admin app's Design screen (Settings → Design → Customize) against this server: it lists the active
 * theme's custom settings by group, previews a change before it is saved, and a change saved there is what the
 * site then shows through `@custom`.
 */
const port = await freePort();
const t = useTestSite({ settings: () => ({ SITE_URL: `http://127.0.0.1:${port}/` }) });

if (!skipWithoutChromium("the admin app's Design screen")) {
  describe("the admin app's Design screen", () => {
    const chromium = useChromium();
    let origin: string;

    beforeAll(async () => {
      if (!adminBuildState(DEFAULT_ADMIN_APP_DIR).ready) await fetchAdminBuild(DEFAULT_ADMIN_APP_DIR, ADMIN_PACKAGE);
      chromium.browser.setDefaultTimeout(30_000);
      await t.app.listen({ port, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${port}`;
      const theme = await t.admin.upload('/themes/upload/', {
        file: { name: 'settings-demo.zip', type: 'application/zip', data: await zipOfFiles(SETTINGS_DEMO) },
      });
      expect(theme.statusCode).toBe(200);
      expect((await t.admin.put('/themes/settings-demo/activate/')).statusCode).toBe(200);
    }, 300_000);

    it("loads the active theme's custom settings and saves a change that the site then shows", async () => {
      const page = await chromium.browser.newPage();
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto(`${origin}/ghost/`);
      await page.waitForURL(/#\/signin/);
      await page.fill('input[name=identification]', OWNER.email);
      await page.fill('input[name=password]', OWNER.password);
      await page.click('button[data-test-button=sign-in]');
      await page.waitForURL(/#\/dashboard/);

      const loaded = page.waitForResponse((res) => res.url().includes('/ghost/api/admin/custom_theme_settings/') && res.request().method() === 'GET');
      await page.goto(`${origin}/ghost/#/settings/design/edit`);
      expect((await loaded).status()).toBe(200);
      await page.getByRole('tab', { name: 'Theme' }).click();
      // The theme's groups as Ghost shows them, with the stored values.
      for (const group of ['Site wide', 'Homepage', 'Post']) await page.getByRole('heading', { name: group, exact: true }).waitFor();
      for (const label of ['Layout', 'Show badge', 'Brand color', 'Hero image', 'Post note']) await page.getByText(label, { exact: true }).waitFor();
      const badge = page.getByLabel('Show badge');
      expect(await badge.getAttribute('aria-checked')).toBe('true');
      // Each change is previewed before it is saved: the admin posts the home page with the unsaved values.
      const previewed = page.waitForResponse(
        (res) =>
          res.request().method() === 'POST' &&
          /"show_badge":false/.test(new URLSearchParams(res.request().headers()['x-ghost-preview'] ?? '').get('custom') ?? ''),
      );
      await badge.click();
      const preview = await previewed;
      expect(preview.status()).toBe(200);
      expect(await preview.text()).toContain('<p class="custom">Wide|false|#ff0000||Hello|');
      await page.getByLabel('Post note').fill('Typed on the Design screen');

      const saved = page.waitForResponse((res) => res.url().includes('/ghost/api/admin/custom_theme_settings/') && res.request().method() === 'PUT');
      await page.getByRole('button', { name: 'Save' }).click();
      const answer = await saved;
      expect(answer.status()).toBe(200);
      expect(JSON.parse(answer.request().postData() ?? '{}').custom_theme_settings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: 'show_badge', value: false }),
          expect.objectContaining({ key: 'post_note', value: 'Typed on the Design screen' }),
        ]),
      );

      // The site shows the saved values at once (the page cache forgot the old page).
      const home = await page.goto(`${origin}/`);
      expect(home?.status()).toBe(200);
      expect(await page.locator('p.custom').innerText()).toBe('Wide|false|#ff0000||Hello|Typed on the Design screen');
      const rows = await t.db
        .selectFrom('custom_theme_settings')
        .select(['key', 'value'])
        .where('key', 'in', ['show_badge', 'post_note'])
        .orderBy('key')
        .execute();
      expect(rows).toEqual([
        { key: 'post_note', value: 'Typed on the Design screen' },
        { key: 'show_badge', value: 'false' },
      ]);
      await page.close();
    }, 180_000);
  });
}
