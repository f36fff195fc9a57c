import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from './browser.js';
import { freePort } from './support.js';
import { useTestSite } from './test-site.js';
import { linkIn } from './members-support.js';
import { MailSink } from './mail-support.js';

/**
 * Portal, served by Quire from its npm package, signs a reader up in a real browser against Quire's Members
 * API: the sign-up form, the mailed link (caught by an SMTP server), the session. The rendered site is
 * another engineer's work: the page here is a minimal one loading Portal with Ghost's `data-*` attributes,
 * served on the site's origin by a small front server that passes everything else to the app.
 */

const mail = new MailSink();
let port = 0;
beforeAll(async () => {
  await mail.start();
  port = await freePort();
});
afterAll(() => mail.stop());
const t = useTestSite({ settings: () => ({ MAIL_SMTP_URL: mail.url, SITE_URL: `http://127.0.0.1:${port}/` }) });

const page = (siteUrl: string, key: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Test Site</title>
<script defer src="${siteUrl}public/sodo-search/sodo-search.min.js" data-key="${key}" data-styles="${siteUrl}public/sodo-search/main.css" data-sodo-search="${siteUrl}" crossorigin="anonymous"></script>
<script defer src="${siteUrl}public/portal/portal.min.js" data-i18n="true" data-ghost="${siteUrl}" data-key="${key}" data-api="${siteUrl}ghost/api/content/" data-locale="en" crossorigin="anonymous"></script>
</head><body><h1>Test Site</h1><a href="#/portal/signup" data-portal="signup">Subscribe</a>
<form id="theme-form" data-members-form="subscribe"><input data-members-name type="text"><input data-members-email type="email"><button type="submit">Go</button><p data-members-error></p></form>
</body></html>`;

function body(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

if (!skipWithoutChromium('Portal in a browser')) {
  describe('Portal in a browser', () => {
    let front: Server;
    let chromium: Awaited<ReturnType<typeof launchChromium>>;
    let browser: BrowserContext;
    let tab: Page;
    let siteUrl: string;

    beforeAll(async () => {
      siteUrl = `http://127.0.0.1:${port}/`;
      front = createServer(async (request, response) => {
        const url = request.url ?? '/';
        if (url === '/' || url.startsWith('/?')) {
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(siteUrl, t.keys.contentKey));
          return;
        }
        const payload = await body(request);
        const res = await t.app.inject({
          method: request.method as 'GET',
          url,
          headers: request.headers as Record<string, string>,
          remoteAddress: '127.0.0.1',
          ...(payload.length > 0 ? { payload } : {}),
        });
        const headers = { ...res.headers };
        delete headers['transfer-encoding'];
        delete headers['content-length'];
        response.writeHead(res.statusCode, headers as Record<string, string | string[]>).end(res.rawPayload);
      });
      await new Promise<void>((resolve) => front.listen(port, '127.0.0.1', resolve));
      expect((front.address() as AddressInfo).port).toBe(port);
      chromium = await launchChromium();
      browser = chromium.browser;
      tab = await browser.newPage();
    }, 120_000);

    afterAll(async () => {
      await chromium?.close();
      if (front) await new Promise((resolve) => front.close(resolve));
    });

    it('signs a reader up through Portal and the mailed link, and signs them out', async () => {
      await tab.goto(`${siteUrl}#/portal/signup`);
      const popup = tab.frameLocator('iframe[title="portal-popup"]');
      await popup.locator('input[name="name"]').fill('Browser Reader', { timeout: 30_000 });
      await popup.locator('input[name="email"]').fill('browser.reader@example.com');
      const before = mail.received.length;
      await popup.locator('button:has-text("Sign up")').first().click();
      await expect.poll(() => popup.locator('text=check your').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      const link = linkIn(await mail.next('browser.reader@example.com', before));

      await tab.goto(link);
      expect(tab.url()).toContain('success=true');
      const me = await tab.evaluate(async () => (await fetch('/members/api/member/')).json());
      expect(me).toMatchObject({ email: 'browser.reader@example.com', name: 'Browser Reader' });

      await tab.goto(`${siteUrl}#/portal/account`);
      await expect
        .poll(() => tab.frameLocator('iframe[title="portal-popup"]').locator('text=browser.reader@example.com').count(), { timeout: 20_000 })
        .toBeGreaterThan(0);
      await tab.frameLocator('iframe[title="portal-popup"]').locator('button:has-text("Sign out")').first().click();
      await expect.poll(async () => tab.evaluate(async () => (await fetch('/members/api/member/')).status), { timeout: 20_000 }).toBe(204);

      // And back in through Portal's sign-in screen, in a new tab of the same browser: Portal reloads the old one
      // after signing out, which could interrupt or outrun a navigation made there.
      tab = await browser.newPage();
      await tab.goto(`${siteUrl}#/portal/signin`);
      const signin = tab.frameLocator('iframe[title="portal-popup"]');
      await signin.locator('input[name="email"]').fill('browser.reader@example.com', { timeout: 30_000 });
      const beforeSignin = mail.received.length;
      await signin.locator('button:has-text("Continue")').first().click();
      const signinMail = await mail.next('browser.reader@example.com', beforeSignin);
      expect(signinMail.subject).toBe('🔑 Secure sign in link for Test Site');
      await tab.goto(linkIn(signinMail));
      expect(tab.url()).toContain('success=true');
      expect(await tab.evaluate(async () => (await fetch('/members/api/member/')).status)).toBe(200);
    }, 120_000);

    it('Search (sodo-search) served by Quire finds a post by its title', async () => {
      expect((await t.admin.post('/posts/', { posts: [{ title: 'Findable Zebra Story', status: 'published' }] })).statusCode).toBe(201);
      tab = await browser.newPage();
      await tab.goto(`${siteUrl}#/search`);
      const search = tab.frameLocator('iframe[title="portal-popup"]').last();
      await search.locator('input').first().fill('Zebra', { timeout: 30_000 });
      await expect.poll(() => search.locator('text=Findable Zebra Story').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    }, 120_000);

    it('a theme form with data-members-form subscribes through Portal', async () => {
      await tab.goto(siteUrl);
      await tab.waitForFunction(() => document.querySelector('[data-portal]')?.classList.contains('gh-portal-close'), undefined, { timeout: 30_000 });
      await tab.fill('#theme-form [data-members-name]', 'Form Reader');
      await tab.fill('#theme-form [data-members-email]', 'form.reader@example.com');
      const before = mail.received.length;
      await tab.click('#theme-form button');
      await tab.waitForFunction(() => document.querySelector('#theme-form')?.classList.contains('success'), undefined, { timeout: 20_000 });
      const m = await mail.next('form.reader@example.com', before);
      expect(m.subject).toBe('📫 Confirm your subscription to Test Site');
      await tab.goto(linkIn(m));
      const me = await tab.evaluate(async () => (await fetch('/members/api/member/')).json());
      expect(me).toMatchObject({ email: 'form.reader@example.com', name: 'Form Reader' });
    }, 120_000);
  });
}
