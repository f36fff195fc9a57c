import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestSite, type TestSite } from '../test-site.js';
import { REDIRECTS_JSON, REDIRECTS_YAML, REDIRECT_PATHS, ROUTES_YAML, ROUTE_PATHS } from '../fixtures/site/routes-files.mjs';
import { QUIRE_ORIGIN, dumpPair, firstDifference, normalise, seedSite, type Recorded } from './parity-support.js';

interface Recording {
  origin: string;
  routes: Record<string, Recorded>;
  redirects: { json: Record<string, Recorded>; yaml: Record<string, Recorded> };
}

const recording = JSON.parse(readFileSync(new URL('../fixtures/site/recorded/routes.json', import.meta.url), 'utf8')) as Recording;

/** Pages whose bodies are known to differ from Ghost's after normalising, and why (the README lists them too). */
const KNOWN_DIFFERENCES: Record<string, string> = {};

const upload = async (t: TestSite, url: string, field: string, name: string, text: string) => {
  const res = await t.admin.upload(url, { [field]: { name, type: 'application/octet-stream', data: Buffer.from(text) } });
  expect(res.statusCode, res.body).toBe(200);
};

/** Fetches each path from Quire and lists how each answer differs from Ghost's (status, location, type, normalised body). */
async function compare(t: TestSite, pages: Record<string, Recorded>, paths: readonly string[], bodies: boolean): Promise<string[]> {
  const mismatches: string[] = [];
  for (const path of paths) {
    const ghost = pages[path]!;
    const res = await t.app.inject({ url: path });
    const location = String(res.headers.location ?? '');
    const type = String(res.headers['content-type'] ?? '');
    const expected = normalise(ghost.body, recording.origin);
    const actual = normalise(res.body, QUIRE_ORIGIN);
    dumpPair('routes', path.replace(/[/?&=]/g, '_'), expected, actual);
    if (ghost.status !== res.statusCode || (ghost.location ?? '') !== location) {
      mismatches.push(`${path}: ${ghost.status} ${ghost.location ?? ''} → ${res.statusCode} ${location}`);
    } else if (ghost.status < 300 && ghost.type !== type) {
      mismatches.push(`${path}: type ${ghost.type} → ${type}`);
    } else if (bodies && ghost.status === 200 && expected !== actual && !KNOWN_DIFFERENCES[path]) {
      mismatches.push(`${path}: ${firstDifference(expected, actual)}`);
    }
  }
  return mismatches;
}

describe('routes.yaml and redirects behave as on Ghost for the same files (Source)', () => {
  const t = useTestSite();

  it('a second collection, a channel, custom routes with data and a content type', async () => {
    await seedSite(t, 'source');
    await upload(t, '/settings/routes/yaml/', 'routes', 'routes.yaml', ROUTES_YAML);
    expect(await compare(t, recording.routes, ROUTE_PATHS, true)).toEqual([]);
  });

  it('a JSON redirects file, then a YAML one in its place', async () => {
    await upload(t, '/redirects/upload/', 'redirects', 'redirects.json', REDIRECTS_JSON);
    expect(await compare(t, recording.redirects.json, REDIRECT_PATHS.json, false)).toEqual([]);
    await upload(t, '/redirects/upload/', 'redirects', 'redirects.yaml', REDIRECTS_YAML);
    expect(await compare(t, recording.redirects.yaml, REDIRECT_PATHS.yaml, false)).toEqual([]);
  });
});
