import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSetting } from '../../src/settings/settings.js';
import { ADMIN, CONTENT } from '../support.js';
import { useTestSite } from '../test-site.js';
import { seedSnapshot } from './seed.js';

/** Counts the SQL statements the app sends. */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const counter = new QueryCounter();
const t = useTestSite({ plugins: [counter] });
beforeAll(async () => {
  await seedSnapshot(t.db);
  // Settings are read once per instance and cached: load them now so every case counts its browse's queries only.
  await readSetting(t.db, 'timezone');
});

async function queriesFor(url: string, admin = false): Promise<number> {
  const before = counter.count;
  const res = await t.app.inject({ method: 'GET', url, headers: admin ? t.integration() : {} });
  expect(res.statusCode, res.body).toBe(200);
  // Admin requests also look up the API key (authentication), which is not the browse's doing.
  return counter.count - before;
}

describe('queries per browse request do not grow with the page', () => {
  const cases: [string, (limit: string) => string, boolean][] = [
    [
      'content posts include=tags,authors',
      (limit) => `${CONTENT}/posts/?key=${t.keys.contentKey}&include=tags,authors,count.posts&filter=tag:-zebra&limit=${limit}`,
      false,
    ],
    ['admin posts include=tags,authors', (limit) => `${ADMIN}/posts/?include=tags,authors,count.posts&filter=tag:-zebra&limit=${limit}`, true],
    ['content tags include=count.posts', (limit) => `${CONTENT}/tags/?key=${t.keys.contentKey}&include=count.posts&limit=${limit}`, false],
    ['admin tags include=count.posts', (limit) => `${ADMIN}/tags/?include=count.posts&limit=${limit}`, true],
    ['content authors include=count.posts', (limit) => `${CONTENT}/authors/?key=${t.keys.contentKey}&include=count.posts&limit=${limit}`, false],
    ['admin users include=count.posts,roles', (limit) => `${ADMIN}/users/?include=count.posts,roles&filter=status:locked&limit=${limit}`, true],
  ];
  const report: Record<string, Record<string, number>> = {};

  for (const [name, url, admin] of cases) {
    it(name, async () => {
      const one = await queriesFor(url('1'), admin);
      const five = await queriesFor(url('5'), admin);
      const all = await queriesFor(url('all'), admin);
      report[name] = { 'limit=1': one, 'limit=5': five, 'limit=all': all };
      expect(five).toBe(one);
      // limit=all skips the COUNT query.
      expect(all).toBe(one - 1);
    });
  }

  afterAll(() => {
    console.log('SQL statements per browse request:', JSON.stringify(report, null, 1));
  });
});
