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

/** A lexical paragraph of plain text. */
export const paragraph = (text: string) => ({
  type: 'paragraph',
  version: 1,
  direction: 'ltr',
  format: '',
  indent: 0,
  children: [{ type: 'text', version: 1, text, detail: 0, format: 0, mode: 'normal', style: '' }],
});

/** A lexical document (as a post's `lexical` field) of the given blocks. */
export const lexicalOf = (...children: object[]) => JSON.stringify({ root: { type: 'root', version: 1, direction: 'ltr', format: '', indent: 0, children } });
