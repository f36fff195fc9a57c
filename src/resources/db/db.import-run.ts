import type { Kysely } from 'kysely';
import type { WriteCtx } from '../../ctx.js';
import { OWNER_USER_ID } from '../../auth/roles.js';
import { ConstraintError, translateDbError } from '../../db/errors.js';
import { errors } from '../../errors.js';
import { fileDate, fileValue, isDateColumn } from './db.values.js';

/** One finding of an import, in Ghost's shape (`problems` of `POST /db/`). */
export interface ImportProblem {
  message: string;
  /** The model the row was for (`Post`, `Tag`, `User`, …), as Ghost names it. */
  help: string;
  /** The row as the file has it, JSON-encoded. */
  context: string;
}

/** An export's `data`: table name → rows. */
export type ExportData = Record<string, unknown>;
export type FileRow = Record<string, unknown>;

/** What a Ghost 6 archive zip holds beside its `export.json` and images (db.file.ts). */
export interface ImportArchive {
  /** `members.csv`, Ghost's members export. */
  membersCsv: string | null;
  /** `themes/<name>.zip`, each as Ghost's theme upload takes it. */
  themes: { name: string; zip: Buffer }[];
  /** Entries not read, and why. */
  skipped: { name: string; reason: string }[];
  /** `routes.yaml`, as `POST /settings/routes/yaml/` takes it. */
  routesYaml?: string | null;
  /** `redirects.yaml` or `redirects.json`, as `POST /redirects/upload/` takes it. */
  redirects?: { name: string; format: 'yaml' | 'json'; text: string } | null;
}

/** The `data` of a Ghost export after `{db:[…]}` is taken off, and what an archive zip held beside it. */
export interface GhostExport {
  meta: { version: string; exported_on?: number };
  data: ExportData;
  archive?: ImportArchive;
}

/** Ghost's message for a row matched with one that exists (same slug or e-mail), which is not imported. */
export const DUPLICATE = 'Entry was not imported and ignored. Detected duplicated entry.';

/** Statements stay well under every engine's bounds (SQLite's variable count, MySQL's packet size). */
const BATCH_ROWS = 100;
const BATCH_CHARS = 1_000_000;

/** Tables are named by the importer's code, never by the file; rows are checked column by column. */
type LooseDb = Kysely<Record<string, Record<string, unknown>>>;

/**
 * The state of one import: the write transaction, the problems found, and for each table a map from the
 * file's ids to the ids the rows have here (new ids, or the existing row a file row was matched with).
 */
export class ImportRun {
  readonly problems: ImportProblem[] = [];
  readonly counts: Record<string, number> = {};
  readonly #ids = new Map<string, Map<string, string>>();
  readonly #written = new Map<string, Set<string>>();

  constructor(
    readonly w: WriteCtx,
    readonly data: ExportData,
  ) {}

  /** The rows of `table` in the file; a table that is not a list of objects fails the whole import. */
  rows(table: string): FileRow[] {
    const rows = this.data[table];
    if (rows === undefined || rows === null) return [];
    if (!Array.isArray(rows)) throw importFailure(`"${table}" is not a list of rows`, table, rows);
    for (const row of rows) {
      if (row === null || typeof row !== 'object' || Array.isArray(row)) throw importFailure(`a row of "${table}" is not an object`, table, row);
    }
    return rows as FileRow[];
  }

  problem(message: string, help: string, row: unknown): void {
    this.problems.push({ message, help, context: JSON.stringify(row) });
  }

  /**
   * Something of the file that is not imported, with how much of it there was and why: beyond Ghost, whose
   * importer passes over tables, columns and keys it does not know without a word.
   */
  notImported(what: string, count: number, reason: string, help: string): void {
    this.problems.push({ message: `Not imported: ${what} (${count}). ${reason}`, help, context: JSON.stringify({ what, count, reason }) });
  }

  /** Marks a row of `table` here as written (or rewritten) from the file: what hangs off it in the file follows it. */
  wrote(table: string, id: string): void {
    let ids = this.#written.get(table);
    if (!ids) this.#written.set(table, (ids = new Set()));
    ids.add(id);
  }

  isWritten(table: string, id: string): boolean {
    return this.#written.get(table)?.has(id) ?? false;
  }

  map(table: string, fileId: unknown, id: string): void {
    if (typeof fileId !== 'string' && typeof fileId !== 'number') return;
    let ids = this.#ids.get(table);
    if (!ids) this.#ids.set(table, (ids = new Map()));
    ids.set(String(fileId), id);
  }

  /** The id here of the file's row `fileId` of `table`, or null when it was not imported nor matched. */
  idOf(table: string, fileId: unknown): string | null {
    if (typeof fileId !== 'string' && typeof fileId !== 'number') return null;
    return this.#ids.get(table)?.get(String(fileId)) ?? null;
  }

  /** A user reference (`created_by`, `author_id`, …): the user it names here, or the Owner, as Ghost falls back. */
  userOf(fileId: unknown): string {
    return this.idOf('users', fileId) ?? OWNER_USER_ID;
  }

  /**
   * The row to insert: the file's values of `columns` in their stored types, then `fixed` on top. An
   * unreadable timestamp is replaced by now and reported, as Ghost does.
   */
  values(row: FileRow, columns: readonly string[], help: string, fixed: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const column of columns) {
      const raw = row[column];
      // A column the file does not have (an older Ghost's file) takes the column's default here.
      if (column in fixed || raw === undefined) continue;
      let value = fileValue(column, raw);
      if (value === null && isDateColumn(column) && raw !== null && raw !== undefined && raw !== '') {
        this.problem('Date is in a wrong format and invalid. It was replaced with the current timestamp.', help, row);
        value = this.w.clock.now();
      }
      out[column] = value;
    }
    return { ...out, ...fixed };
  }

  /** A timestamp of the file, or now when it has none. */
  dateOr(value: unknown): Date {
    return fileDate(value) ?? this.w.clock.now();
  }

  /** Inserts rows in batches; a row the database refuses fails the import with the table and row named. */
  async insert(table: string, rows: Record<string, unknown>[]): Promise<void> {
    const db = this.w.db as unknown as LooseDb;
    let batch: Record<string, unknown>[] = [];
    let chars = 0;
    let shape = '';
    const flush = async () => {
      if (batch.length === 0) return;
      try {
        await db.insertInto(table).values(batch).execute();
      } catch (err) {
        throw refusedRow(table, batch, err);
      }
      batch = [];
      chars = 0;
    };
    for (const row of rows) {
      // One statement inserts rows of one shape: the columns a row leaves out take their defaults.
      const rowShape = Object.keys(row).join();
      if (rowShape !== shape) await flush();
      shape = rowShape;
      batch.push(row);
      for (const value of Object.values(row)) if (typeof value === 'string') chars += value.length;
      if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) await flush();
    }
    await flush();
    this.counts[table] = (this.counts[table] ?? 0) + rows.length;
  }
}

/** The import stops and nothing it wrote is kept: a Ghost ValidationError naming what was wrong. */
export function importFailure(reason: string, table: string, row: unknown) {
  const context = JSON.stringify(row) ?? String(row);
  return errors.validation({ message: `Import failed: ${reason}.`, help: table, context: context.length > 2000 ? `${context.slice(0, 2000)}…` : context });
}

function refusedRow(table: string, batch: Record<string, unknown>[], raw: unknown) {
  const err = translateDbError(raw);
  if (!(err instanceof ConstraintError)) {
    // Other refusals of a value (too long for its column, out of range) name the engine's reason.
    const code = (raw as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? importFailure(`a row of "${table}" was refused (${code})`, table, batch[batch.length - 1]) : raw;
  }
  const column = err.column;
  const row = (column && err.kind === 'not_null' ? batch.find((r) => r[column] === null || r[column] === undefined) : null) ?? batch[batch.length - 1];
  return importFailure(`a row of "${table}" was refused (${err.message})`, table, row);
}
