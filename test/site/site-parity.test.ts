import { readFileSync } from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestSite } from '../test-site.js';
import { PATHS, REDIRECTS, SITE_TITLE, seed } from '../fixtures/site/content.mjs';
import { installTheme } from './site-support.js';
import { firstDifference, normalise } from './parity-support.js';

interface Recorded {
  status: number;
  type: string | null;
  location: string | null;
  body: string;
}

const PEER_ORIGIN = 'http://127.0.0.1:2401';
const QUIRE_ORIGIN = 'http://127.0.0.1:2368';
const recorded = (theme: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/site/recorded/${theme}.json`, import.meta.url), 'utf8')) as Record<string, Recorded>;

/** Pages known not to be byte-identical after normalising, and why (the README lists them too). */
const KNOWN_DIFFERENCES: Record<string, string> = {};

/**
 * Sitemaps list the same URLs with the same lastmod, but Ghost orders entries whose lastmod fall in the same
 * second by its URL service's insertion order, which depends on how fast the seed ran: compared as sorted lists.
 */
const sortedEntries = (path: string, body: string) => {
  if (!/^\/sitemap-\w+\.xml$/.test(path)) return body;
  const entries = body.match(/<url>.*?<\/url>/g) ?? [];
  return body.replace(/<url>.*<\/url>/, [...entries].sort().join(''));
};

describe('Source and Casper render as on Ghost', () => {
  const t = useTestSite();

  it.each(['source', 'casper'] as const)('%s', async (theme) => {
    const unwrap = async (res: { statusCode: number; body: string }) => {
      if (res.statusCode >= 300) throw new Error(`${res.statusCode} ${res.body}`);
      return res.body ? (JSON.parse(res.body) as unknown) : null;
    };
    await seed({
      get: async (url: string) => unwrap(await t.admin.get(url)),
      post: async (url: string, body: unknown) => unwrap(await t.admin.post(url, body)),
      put: async (url: string, body: unknown) => unwrap(await t.admin.put(url, body)),
      del: async (url: string) => unwrap(await t.admin.del(url)),
    });
    await t.admin.put('/settings/', { settings: [{ key: 'title', value: SITE_TITLE }] });
    await installTheme(t, theme);
    const pages = recorded(theme);
    const mismatches: string[] = [];
    for (const path of [...PATHS, ...REDIRECTS]) {
      const ghost = pages[path]!;
      const res = await t.app.inject({ url: path });
      const quire = { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), location: String(res.headers.location ?? ''), body: res.body };
      const expected = sortedEntries(path, normalise(ghost.body, PEER_ORIGIN));
      const actual = sortedEntries(path, normalise(quire.body, QUIRE_ORIGIN));
      const same =
        ghost.status === quire.status && (ghost.location ?? '') === quire.location && (ghost.status >= 300 && ghost.status < 400 ? true : expected === actual);
      if (process.env.SITE_PARITY_DUMP) {
        const dir = `${process.env.SITE_PARITY_DUMP}/${theme}`;
        mkdirSync(dir, { recursive: true });
        const name = path.replace(/\//g, '_') || '_';
        writeFileSync(`${dir}/${name}.ghost`, expected);
        writeFileSync(`${dir}/${name}.quire`, actual);
      }
      if (!same && !KNOWN_DIFFERENCES[`${theme} ${path}`]) mismatches.push(`${path}: ${ghost.status}→${quire.status} ${firstDifference(expected, actual)}`);
    }
    expect(mismatches).toEqual([]);
  });
});
