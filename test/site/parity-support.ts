import { mkdirSync, writeFileSync } from 'node:fs';
import type { TestSite } from '../test-site.js';
import { SITE_TITLE, seed } from '../fixtures/site/content.mjs';
import { installTheme } from './site-support.js';

/** One answer of Ghost's, as test/fixtures/site/record.mjs stored it. */
export interface Recorded {
  status: number;
  type: string | null;
  location: string | null;
  body: string;
}

/** The origin the test site answers as. */
export const QUIRE_ORIGIN = 'http://127.0.0.1:2368';

/** The recorded site's content through the Admin API, its title, and `theme` active. */
export async function seedSite(t: TestSite, theme: 'source' | 'casper'): Promise<void> {
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
}

/** With SITE_PARITY_DUMP set, writes both normalised pages to `<dump>/<folder>/<name>.ghost|.quire` for a diff tool. */
export function dumpPair(folder: string, name: string, expected: string, actual: string): void {
  if (!process.env.SITE_PARITY_DUMP) return;
  const dir = `${process.env.SITE_PARITY_DUMP}/${folder}`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/${name}.ghost`, expected);
  writeFileSync(`${dir}/${name}.quire`, actual);
}

/** Makes a page from Ghost and the same page from Quire comparable: what differs by nature between two sites is replaced by a token. */
export function normalise(body: string, origin: string): string {
  const host = origin.replace(/^https?:/, '');
  return (
    body
      .split(origin)
      .join('SITE')
      .split(host)
      .join('//SITE_HOST')
      // Ghost loads Portal and search from a CDN; Quire serves its own copies under /public/.
      .replace(/https:\/\/cdn\.jsdelivr\.net\/ghost\/portal@~[\d.]+\/umd\/portal\.min\.js/g, 'PORTAL_JS')
      .replace(/SITE\/public\/portal\/portal\.min\.js/g, 'PORTAL_JS')
      .replace(/https:\/\/cdn\.jsdelivr\.net\/ghost\/sodo-search@~[\d.]+\/umd\/(sodo-search\.min\.js|main\.css)/g, 'SEARCH_$1')
      .replace(/SITE\/public\/sodo-search\/(sodo-search\.min\.js|main\.css)/g, 'SEARCH_$1')
      .replace(/\?v=[0-9a-f]+/g, '?v=V')
      .replace(/\b[0-9a-f]{24}\b/g, 'ID')
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, 'UUID')
      .replace(/data-key="[0-9a-f]*"/g, 'data-key="KEY"')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?(Z|[+-]\d\d:\d\d)/g, 'TIME')
      // Ghost's members call-to-action stylesheet is its own text; Quire prints its own rules for the same classes.
      .replace(/<style id="gh-members-styles">[^]*?<\/style>/g, '<style id="gh-members-styles">MEMBERS_CSS</style>')
      .replace(/<lastBuildDate>[^<]*<\/lastBuildDate>/g, '<lastBuildDate>NOW</lastBuildDate>')
  );
}

/** The first line where two texts part, with a little context, for a readable failure. */
export function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] !== right[i]) return `line ${i + 1}:\n  ghost: ${(left[i] ?? '<end>').slice(0, 300)}\n  quire: ${(right[i] ?? '<end>').slice(0, 300)}`;
  }
  return 'identical';
}
