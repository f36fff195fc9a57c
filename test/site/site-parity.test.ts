import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestSite } from '../test-site.js';
import { PATHS, REDIRECTS } from '../fixtures/site/content.mjs';
import { QUIRE_ORIGIN, dumpPair, firstDifference, normalise, seedSite, type Recorded } from './parity-support.js';

const PEER_ORIGIN = 'http://127.0.0.1:2401';
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
    await seedSite(t, theme);
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
      dumpPair(theme, path.replace(/\//g, '_') || '_', expected, actual);
      if (!same && !KNOWN_DIFFERENCES[`${theme} ${path}`]) mismatches.push(`${path}: ${ghost.status}→${quire.status} ${firstDifference(expected, actual)}`);
    }
    expect(mismatches).toEqual([]);
  });
});
