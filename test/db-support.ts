import { readFileSync } from 'node:fs';
import type { TestSite, Caller } from './test-site.js';

/** Exports of a Ghost 5.130.6 site seeded by test/fixtures/db/seed-peer.mjs (default tables; with members). */
export const PEER_EXPORT = readFileSync(new URL('./fixtures/db/peer-export.json', import.meta.url), 'utf8');
export const PEER_EXPORT_MEMBERS = readFileSync(new URL('./fixtures/db/peer-export-members.json', import.meta.url), 'utf8');
/** A Ghost 6.65 export with its members (`GET /db/?include=members,…` of a Ghost 6 site; /work/shared/fixtures/ghost6). */
export const GHOST6_EXPORT = readFileSync(new URL('./fixtures/db/ghost6-export.json', import.meta.url), 'utf8');
/** The second staff user the seeding script wrote into the peer, with the password it set. */
export const PEER_STAFF = { email: 'editor@example.com', password: 'Editor-pass-2026!' };

export type Row = Record<string, unknown>;
export type ExportData = Record<string, Row[]>;
export const dataOf = (text: string): ExportData => (JSON.parse(text) as { db: [{ data: ExportData }] }).db[0].data;

/** `POST /db/` with `text` as the uploaded `.json`. */
export function importJson(t: TestSite, text: string, as?: Caller, name = 'export.json') {
  return t.admin.upload('/db/', { importfile: { name, type: 'application/json', data: text } }, as);
}

/** Rows per table of the tables an import writes, and the settings' values: enough to see any change. */
export async function snapshot(t: TestSite): Promise<Record<string, unknown>> {
  const tables = [
    'posts',
    'posts_meta',
    'posts_tags',
    'posts_authors',
    'posts_products',
    'tags',
    'users',
    'roles_users',
    'products',
    'newsletters',
    'members',
    'labels',
    'members_labels',
    'members_newsletters',
    'members_products',
    'outbox',
    'actions',
  ] as const;
  const out: Record<string, unknown> = {};
  for (const table of tables) {
    const rows = await t.db.selectFrom(table).select('id').orderBy('id').execute();
    out[table] = rows.map((row) => row.id);
  }
  out.settings = await t.db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute();
  return out;
}
