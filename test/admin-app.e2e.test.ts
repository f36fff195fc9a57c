import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { DEFAULT_ADMIN_APP_DIR } from '../src/config.js';
import { adminBuildState, fetchAdminBuild } from '../src/admin-app/fetch.js';
import { ADMIN_PACKAGE } from '../src/admin-app/pin.js';
import { freePort } from './support.js';
import { useTestSite } from './test-site.js';
import { assertChromium, CHROMIUM, skipWithoutChromium } from './browser.js';

/**
 * Ghost's own admin app, as `npm install` fetched it, driven in Chromium against this server: first-run set-up,
 * sign-in, a post written and published in the editor, the post list. Chromium comes from the system's packages
 * (`apt-get install chromium`): CI (`CI` set) fails here without it, a developer without it gets a skipped test.
 * A missing admin build is fetched first (the npm registry must answer). Every request the page makes to another
 * host is recorded and printed: the editor and the settings app must load from this server.
 */
const OWNER = { name: 'Browser Owner', email: 'browser-owner@example.com', password: 'Sup3r-secret-pass!', title: 'Browser Site' };

let port = 0;
let subPort = 0;
beforeAll(async () => {
  port = await freePort();
  subPort = await freePort();
});
// The site URL is where the browser finds it: the session cookie and the Origin check follow it.
const t = useTestSite({ setup: 'none', settings: () => ({ SITE_URL: `http://127.0.0.1:${port}/` }) });
// A second site in a sub-directory: the app finds its API and assets from its own address.
const sub = useTestSite({ setup: 'none', settings: () => ({ SITE_URL: `http://127.0.0.1:${subPort}/blog/` }) });

/** The first-run screen, filled in as a new publisher would. */
async function setUpOwner(page: Page, admin: string) {
  await page.goto(admin);
  await page.waitForURL(/#\/setup/);
  await page.fill('#blog-title', OWNER.title);
  await page.fill('#name', OWNER.name);
  await page.fill('#email', OWNER.email);
  await page.fill('#password', OWNER.password);
  await page.click('button[type=submit]');
  await page.waitForURL(/#\/dashboard/);
}

/** A new post written in the editor and published now, through the publish flow. */
async function publishPost(page: Page, admin: string, title: string, text: string) {
  await page.goto(`${admin}#/editor/post`);
  await page.locator('textarea.gh-editor-title').fill(title);
  // Into Koenig (the lexical editor, from this server's assets) once it has loaded.
  const body = page.locator('.koenig-lexical [contenteditable=true]').first();
  await body.click();
  await page.keyboard.type(text);
  await expect.poll(() => body.textContent()).toContain(text);
  await page.locator('button[data-test-button=publish-flow]').first().click();
  await page.locator('button[data-test-button=continue]').click();
  // The button pulses: Playwright never finds it still.
  await page.locator('button[data-test-button=confirm-publish]').click({ force: true });
  await expect.poll(() => page.locator('[data-test-publish-flow=complete]').textContent(), { timeout: 30_000 }).toContain("It's out there");
}

if (!skipWithoutChromium("Ghost's admin app in a browser")) {
  describe("Ghost's admin app in a browser", () => {
    let base: string;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const offHost: string[] = [];
    const local: string[] = [];
    const failed: string[] = [];
    const started = new Map<Request, number>();

    /** A browser profile whose every request is recorded: to this server, to other hosts, failed. */
    async function newContext() {
      const created = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      // The app's first load parses several MB of JavaScript: on a busy 2-core CI machine that has taken over 30 s.
      created.setDefaultTimeout(90_000);
      created.on('request', (request) => {
        started.set(request, performance.now());
        if (request.url().startsWith(`${base}/`)) local.push(request.url());
        else if (!/^(data|blob):/.test(request.url())) offHost.push(request.url());
      });
      // With how long each had been loading: a step that times out shows whether an answer or the browser was slow.
      const age = (request: Request) => `${Math.round(performance.now() - (started.get(request) ?? 0))} ms`;
      created.on('requestfinished', (request) => started.delete(request));
      created.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText ?? ''} after ${age(request)}`));
      return created;
    }

    beforeAll(async () => {
      assertChromium();
      if (!adminBuildState(DEFAULT_ADMIN_APP_DIR).ready) await fetchAdminBuild(DEFAULT_ADMIN_APP_DIR, ADMIN_PACKAGE);
      await t.app.listen({ port, host: '127.0.0.1' });
      await sub.app.listen({ port: subPort, host: '127.0.0.1' });
      base = `http://127.0.0.1:${port}`;
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        timeout: 60_000,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
      context = await newContext();
      page = await context.newPage();
    }, 300_000);

    afterAll(async () => {
      if (offHost.length) console.log(`admin-app.e2e: requests to other hosts (none reachable here):\n  ${[...new Set(offHost)].join('\n  ')}`);
      if (failed.length) console.log(`admin-app.e2e: failed requests:\n  ${[...new Set(failed)].join('\n  ')}`);
      await browser?.close();
    });

    it('creates the owner on the first-run screen', async () => {
      await setUpOwner(page, `${base}/ghost/`);
      const owner = await t.db.selectFrom('users').select(['email', 'name']).executeTakeFirstOrThrow();
      expect(owner).toEqual({ email: OWNER.email, name: OWNER.name });
    }, 180_000);

    it('signs in from a browser without a session', async () => {
      const [cookie] = await context.cookies(`${base}/ghost/`);
      expect(cookie).toMatchObject({ name: 'service-admin-api-session', path: '/ghost', sameSite: 'Lax', httpOnly: true });
      // A new browser profile: no cookie, and none of the app's state in local storage.
      await context.close();
      context = await newContext();
      page = await context.newPage();
      await page.goto(`${base}/ghost/`);
      await page.waitForURL(/#\/signin/);
      await page.fill('input[name=identification]', OWNER.email);
      await page.fill('input[name=password]', OWNER.password);
      await page.click('button[data-test-button=sign-in]');
      await page.waitForURL(/#\/dashboard/);
    }, 180_000);

    it('writes and publishes a post in the editor, and lists it', async () => {
      await publishPost(page, `${base}/ghost/`, 'Written in the browser', 'A paragraph typed into Koenig.');

      // Read until the publish is recorded (a failure shows every post row as it is).
      const posts = async () =>
        (await t.db.selectFrom('posts').select(['title', 'status', 'lexical']).execute()).map((post) => ({
          title: post.title,
          status: post.status,
          typed: Boolean(post.lexical?.includes('A paragraph typed into Koenig.')),
        }));
      await expect.poll(posts, { timeout: 15_000 }).toEqual([{ title: 'Written in the browser', status: 'published', typed: true }]);

      await page.goto(`${base}/ghost/#/posts`);
      const row = page.locator('.gh-posts-list-item, .gh-list-row', { hasText: 'Written in the browser' }).first();
      await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('Published');
    }, 240_000);

    it('works the same under a sub-directory SITE_URL (/blog/ghost/)', async () => {
      const subContext = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      subContext.setDefaultTimeout(90_000);
      try {
        const subPage = await subContext.newPage();
        const admin = `http://127.0.0.1:${subPort}/blog/ghost/`;
        await setUpOwner(subPage, admin);
        const [cookie] = await subContext.cookies(admin);
        expect(cookie).toMatchObject({ name: 'service-admin-api-session', path: '/blog/ghost', sameSite: 'Lax' });
        await publishPost(subPage, admin, 'Under a sub-directory', 'Written at /blog/ghost/.');
        const post = () => sub.db.selectFrom('posts').select(['title', 'status']).where('status', '=', 'published').executeTakeFirst();
        await expect.poll(post, { timeout: 15_000 }).toEqual({ title: 'Under a sub-directory', status: 'published' });
      } finally {
        await subContext.close();
      }
    }, 240_000);

    it('loaded the editor and the settings app from this server', async () => {
      await page.goto(`${base}/ghost/#/settings`);
      await expect.poll(() => page.locator('text=General settings').count(), { timeout: 90_000 }).toBeGreaterThan(0);
      expect(local.some((url) => url.includes('/ghost/assets/koenig-lexical/koenig-lexical.umd.js'))).toBe(true);
      expect(local.some((url) => url.includes('/ghost/assets/admin-x-settings/'))).toBe(true);
      const scripts = offHost.filter((url) => /koenig|lexical|admin-x|\.m?js(\?|$)/.test(url));
      expect(scripts).toEqual([]);
    }, 150_000);
  });
}
