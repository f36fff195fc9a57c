import type { LightMyRequestResponse } from 'fastify';
import { rowCounts, type TestApp } from './support.js';

/** The only resource of an envelope (`posts[0]`, `tags[0]`, …). */
export function first(res: LightMyRequestResponse, key: string) {
  const body = res.json() as Record<string, Record<string, unknown>[]>;
  if (!Array.isArray(body[key]) || body[key]!.length === 0) throw new Error(`no ${key} in ${res.statusCode} ${res.body}`);
  return body[key]![0] as Record<string, any>;
}

/** Row counts of every posts table: a failed write must leave them all unchanged. */
export const tableCounts = (t: TestApp) => rowCounts(t, ['posts', 'posts_meta', 'posts_tags', 'posts_authors', 'post_revisions', 'tags']);
