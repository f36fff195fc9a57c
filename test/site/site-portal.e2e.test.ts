import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support.js';
import { skipWithoutChromium, useChromium } from '../browser.js';
import { lexicalOf } from '../factories.js';
import { useTestSite } from '../test-site.js';
import { linkIn } from '../members-support.js';
import { MailSink } from '../mail-support.js';
import { installTheme } from './site-support.js';

/**
 * A reader's whole way through the rendered site (Source) in a real browser: a members-only post is gated for
 * a visitor; they subscribe through Portal from the post's call to action, follow the mailed link (caught by
 * an SMTP server), read the post whole, turn the newsletter off in Portal's account screen and sign out.
 */
const mail = new MailSink();
const port = await freePort();
beforeAll(() => mail.start());
afterAll(() => mail.stop());
const t = useTestSite({ settings: () => ({ MAIL_SMTP_URL: mail.url, SITE_URL: `http://127.0.0.1:${port}/` }) });

const lexical = lexicalOf('The part for members');

if (!skipWithoutChromium('a reader on the site')) {
  describe('a reader on the site', () => {
    const chromium = useChromium();

    it('subscribes through Portal, reads a members-only post, changes newsletters and signs out', async () => {
      await t.app.listen({ port, host: '127.0.0.1' });
      const site = `http://127.0.0.1:${port}`;
      await t.admin.put('/settings/', { settings: [{ key: 'cover_image', value: '' }] });
      await installTheme(t, 'source');
      const made = await t.admin.post('/posts/', {
        posts: [{ title: 'For members', slug: 'for-members', status: 'published', visibility: 'members', lexical }],
      });
      expect(made.statusCode).toBe(201);

      const tab = await chromium.browser.newPage();
      await tab.goto(`${site}/for-members/`);
      expect(await tab.locator('text=The part for members').count()).toBe(0);
      await tab.locator('.gh-post-upgrade-cta [data-portal="signup"]').click();
      const popup = tab.frameLocator('iframe[title="portal-popup"]');
      await popup.locator('input[name="name"]').fill('Site Reader', { timeout: 30_000 });
      await popup.locator('input[name="email"]').fill('site.reader@example.com');
      const before = mail.received.length;
      await popup.locator('button:has-text("Sign up")').first().click();
      const link = linkIn(await mail.next('site.reader@example.com', before));

      await tab.goto(link);
      expect(tab.url()).toContain('success=true');
      await tab.goto(`${site}/for-members/`);
      await expect.poll(() => tab.locator('text=The part for members').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      const member = async () => tab.evaluate(async () => (await fetch('/members/api/member/')).json() as Promise<{ newsletters: unknown[] }>);
      expect((await member()).newsletters).toHaveLength(1);

      await tab.goto(`${site}/#/portal/account`);
      const account = tab.frameLocator('iframe[title="portal-popup"]');
      await account.locator('.gh-portal-for-switch').first().click({ timeout: 30_000 });
      await expect.poll(async () => (await member()).newsletters.length, { timeout: 20_000 }).toBe(0);

      await account.locator('button:has-text("Sign out")').first().click();
      await expect.poll(async () => tab.evaluate(async () => (await fetch('/members/api/member/')).status), { timeout: 20_000 }).toBe(204);
      // In a new tab: Portal reloads the old one after signing out, which could interrupt a navigation there.
      const after = await chromium.browser.newPage();
      await after.goto(`${site}/for-members/`);
      expect(await after.locator('text=The part for members').count()).toBe(0);
    }, 180_000);
  });
}
