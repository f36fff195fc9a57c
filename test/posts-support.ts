import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './support.js';

/** The only resource of an envelope (`posts[0]`, `tags[0]`, …). */
export function first(res: LightMyRequestResponse, key: string) {
  const body = res.json() as Record<string, Record<string, unknown>[]>;
  if (!Array.isArray(body[key]) || body[key]!.length === 0) throw new Error(`no ${key} in ${res.statusCode} ${res.body}`);
  return body[key]![0] as Record<string, any>;
}

/** Row counts of every posts table: a failed write must leave them all unchanged. */
export async function tableCounts(t: TestApp): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['posts', 'posts_meta', 'posts_tags', 'posts_authors', 'post_revisions', 'tags'] as const) {
    const row = await t.connection.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}
