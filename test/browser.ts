import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Chromium for the browser tests. It comes from the system's packages (`apt-get install chromium`), not from
 * npm: CI (`CI` set, as `.ci/run` does) installs it and fails without it; a developer without it gets a skipped
 * test saying so. The flags keep it from reaching out (this machine has no way out) and from needing a sandbox.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const required = Boolean(process.env.CI);

/** Registers `name` with a skipped test and answers true when there is no browser and none is required. */
export function skipWithoutChromium(name: string): boolean {
  if (available || required) return false;
  describe(name, () => {
    it.skip(`skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH); CI runs it`, () => {});
  });
  return true;
}

/** Fails as CI must when Chromium is missing: for a test that got past `skipWithoutChromium` because CI requires it. */
export function assertChromium(): void {
  if (!available) throw new Error(`Chromium is required in CI and missing at ${CHROMIUM}: apt-get install -y chromium`);
}

/** A headless Chromium with a fresh profile; `close` ends it and removes the profile. */
export async function launchChromium(): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  assertChromium();
  const profile = mkdtempSync(path.join(tmpdir(), 'quire-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Chromium for the enclosing `describe`: launched in its `beforeAll` (allowed two minutes), closed in its `afterAll`. */
export function useChromium(): { readonly browser: BrowserContext } {
  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
  beforeAll(async () => {
    chromium = await launchChromium();
  }, 120_000);
  afterAll(async () => chromium?.close());
  return {
    get browser() {
      if (!chromium) throw new Error('the browser is used before its beforeAll has run');
      return chromium.browser;
    },
  };
}

/**
 * What a reader's page went through: console errors, page errors, failed requests and answers that were not a
 * success (`problems`), and every URL answered (`answered`).
 */
export function watchPage(page: Page): { problems: string[]; answered: string[] } {
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
  return { problems, answered };
}
