import { sql } from 'kysely';
import type { ReadDb } from '../../db/read-db.js';
import type { Clock } from '../../clock.js';
import { readSetting } from '../../settings/settings.js';
import { slugify } from '../../content/slugs.js';
import { exportTables, isExportedSetting, MISSING_COLUMN_VALUES } from './db.tables.js';

/** Ghost's version in `meta.version`: importers (Ghost's and ours) read the file's format from it. */
export const EXPORT_VERSION = '5.130.6';

export interface ExportOptions {
  /** Write `created_by`, `updated_by`, `published_by`: backups files have them, API answers do not. */
  authorship: boolean;
}

const AUTHORSHIP = new Set(['created_by', 'updated_by', 'published_by']);

/** Rows read per query: memory holds one page of one table at a time, whatever the site's size. */
const PAGE_SIZE = 500;

/**
 * Ghost's export file name: `<site title slug>.ghost.<YYYY-MM-DD-HH-mm-ss>.json` (UTC here), or the name the
 * caller chose plus `.json`. Also the name of the backups written before destructive changes.
 */
export async function exportFileName(db: ReadDb, clock: Clock, chosen?: string): Promise<string> {
  if (chosen) return `${chosen}.json`;
  const title = await readSetting(db, 'title');
  const stamp = clock.now().toISOString().replace('T', '-').replace(/:/g, '-').slice(0, 19);
  return `${title ? `${slugify(title)}.` : ''}ghost.${stamp}.json`;
}

/**
 * The export as Ghost writes it, `{"meta":{exported_on, version},"data":{<table>: [rows…], …}}`, produced
 * piece by piece: each table is read in pages by id, so a site of any size is written in flat memory.
 */
export async function* exportDocument(db: ReadDb, clock: Clock, include: readonly string[], { authorship }: ExportOptions): AsyncGenerator<string> {
  yield `{"meta":${JSON.stringify({ exported_on: clock.epochMs(), version: EXPORT_VERSION })},"data":{`;
  let first = true;
  for (const table of exportTables(include)) {
    yield `${first ? '' : ','}${JSON.stringify(table.name)}:[`;
    first = false;
    let firstRow = true;
    const columns = table.columns && (authorship ? table.columns : table.columns.filter((column) => !AUTHORSHIP.has(column)));
    for await (const row of tableRows(db, table.name, columns)) {
      yield (firstRow ? '' : ',') + JSON.stringify(row);
      firstRow = false;
    }
    yield ']';
  }
  yield '}}';
}

/**
 * `GET /db/` wraps the document as Ghost's API does, `{"db":[<document>]}`, and like every answer of Ghost's
 * API it carries no `created_by`, `updated_by` or `published_by` (its output serializer strips them).
 */
export async function* exportResponse(db: ReadDb, clock: Clock, include: readonly string[]): AsyncGenerator<string> {
  yield '{"db":[';
  yield* exportDocument(db, clock, include, { authorship: false });
  yield ']}';
}

async function* tableRows(db: ReadDb, name: string, columns: readonly string[] | null): AsyncGenerator<Record<string, unknown>> {
  if (!columns) return;
  let after: string | null = null;
  for (;;) {
    // The table name comes from the fixed list in db.tables.ts, never from the request.
    let query = db.selectFrom(sql.table(name).as('t')).selectAll().orderBy(sql.ref('t.id')).limit(PAGE_SIZE);
    if (after !== null) query = query.where(sql.ref('t.id'), '>', after);
    const page = (await query.execute()) as Record<string, unknown>[];
    for (const row of page) {
      if (name === 'settings' && !isExportedSetting(row.key as string)) continue;
      yield ghostRow(row, columns);
    }
    if (page.length < PAGE_SIZE) return;
    after = page[page.length - 1]!.id as string;
  }
}

/**
 * One row with Ghost's columns in Ghost's order, values as Ghost on MySQL writes them: ISO timestamps and
 * booleans as 0/1 (tinyint columns).
 */
function ghostRow(row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    const value = column in row ? row[column] : (MISSING_COLUMN_VALUES[column] ?? null);
    out[column] = value instanceof Date ? value.toISOString() : typeof value === 'boolean' ? Number(value) : value;
  }
  return out;
}
