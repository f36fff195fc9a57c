import { Readable } from 'node:stream';
import Papa from 'papaparse';

/**
 * Ghost's members CSV, read and written with the library Ghost uses (papaparse, same options), so quoting,
 * formula escaping and the odd cases of reading (a byte-order mark, `true`/`false` cells) come out as Ghost's.
 * Pinned at Ghost's 5.3.2: from 5.4 on, papaparse renames duplicate headers after `transformHeader`, which
 * breaks a mapping that renames columns (and every unmapped column is named `undefined`).
 */

/** The export's columns, in Ghost's order. */
export const EXPORT_COLUMNS = [
  'id',
  'email',
  'name',
  'note',
  'subscribed_to_emails',
  'complimentary_plan',
  'stripe_customer_id',
  'created_at',
  'deleted_at',
  'labels',
  'tiers',
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | null>;

/**
 * Rows of the export as Ghost streams them: CRLF between rows, none after the last, the header before the
 * first row (an export of no member is empty, header included). `first` says whether these rows start the file.
 */
export function exportChunk(rows: readonly ExportRow[], first: boolean): string {
  if (rows.length === 0) return '';
  const csv = Papa.unparse(
    { fields: [...EXPORT_COLUMNS], data: rows.map((row) => EXPORT_COLUMNS.map((column) => row[column])) },
    {
      header: first,
      escapeFormulae: true,
      newline: '\r\n',
    },
  );
  return first ? csv : `\r\n${csv}`;
}

/** The header → field mapping Ghost applies when the request names none (and to its prepared file). */
export const DEFAULT_MAPPING: Readonly<Record<string, string>> = {
  email: 'email',
  name: 'name',
  note: 'note',
  subscribed_to_emails: 'subscribed',
  created_at: 'created_at',
  complimentary_plan: 'complimentary_plan',
  stripe_customer_id: 'stripe_customer_id',
  labels: 'labels',
  import_tier: 'import_tier',
  // Beyond Ghost's importer, which reads neither: the tiers of a comped member (Ghost's export names them here),
  // and the newsletters a member subscribes to when a file names them.
  tiers: 'tiers',
  newsletters: 'newsletters',
};

/** One row as Ghost's importer reads it: the mapped fields only, cells converted as `@tryghost/members-csv` does. */
export type ImportRow = Record<string, unknown> & { labels: { name: string }[] };

/** `@tryghost/members-csv`'s cell conversion: labels split on commas, flags, empty cells null, `true`/`false` booleans anywhere. */
function cell(value: string, field: string): unknown {
  if (field === 'labels' && value) return value.split(',').map((name) => ({ name }));
  if (field === 'subscribed') return value.toLowerCase() !== 'false';
  if (field === 'complimentary_plan') return value.toLowerCase() === 'true';
  if (value === '' || value === 'undefined') return null;
  if (value.toLowerCase() === 'false') return false;
  if (value.toLowerCase() === 'true') return true;
  return value;
}

/**
 * Reads a members CSV with a header → field mapping (unmapped columns dropped, rows with no mapped cell
 * skipped), adding `defaultLabels` after each row's own labels. Rows are collected: Ghost's importer reads the
 * whole file before it writes, and so does this one (its answer counts the rows first).
 */
export function parseMembersCsv(
  input: Readable | string,
  mapping: Readonly<Record<string, string>>,
  defaultLabels: readonly { name: string }[],
): Promise<ImportRow[]> {
  return new Promise((resolve, reject) => {
    const rows: ImportRow[] = [];
    const config: Papa.ParseConfig<Record<string, unknown>> = {
      header: true,
      transformHeader: (header) => {
        const clean = header.replace(Papa.BYTE_ORDER_MARK, '');
        // Unmapped columns all become `undefined`, deleted below (as Ghost does).
        return Object.hasOwn(mapping, clean) ? mapping[clean]! : 'undefined';
      },
      transform: (value, field) => cell(value, String(field)),
    };
    const take = (row: Record<string, unknown>) => {
      delete row.undefined;
      if (Object.keys(row).length === 0) return;
      const own = Array.isArray(row.labels) ? (row.labels as { name: string }[]) : [];
      rows.push({ ...row, labels: [...own, ...defaultLabels] });
    };
    const parser = Papa.parse(Papa.NODE_STREAM_INPUT, config) as unknown as NodeJS.ReadWriteStream;
    // Always as a stream, as Ghost reads: a string parse would also yield a row for the final line break.
    const source = typeof input === 'string' ? Readable.from([input]) : input;
    source.on('error', reject);
    parser.on('error', reject);
    parser.on('data', take);
    parser.on('end', () => resolve(rows));
    source.pipe(parser);
  });
}

/**
 * Ghost's importer writes the rows it read (with the request's mapping) to a "prepared" file in its own
 * columns and imports that file: the round trip is part of its behaviour (a label holding a comma becomes two,
 * a formula-like cell keeps the apostrophe the writer put before it). `columns` are the first row's fields.
 */
export function preparedCsv(rows: readonly ImportRow[]): string {
  if (rows.length === 0) return '';
  const columns = Object.keys(rows[0]!).map((column) => (column === 'subscribed' ? 'subscribed_to_emails' : column));
  const data = rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    note: row.note,
    subscribed_to_emails: 'subscribed' in row ? row.subscribed : row.subscribed_to_emails,
    complimentary_plan: row.complimentary_plan,
    stripe_customer_id: row.stripe_customer_id,
    created_at: row.created_at,
    labels: row.labels.map((label) => label.name).join(','),
    import_tier: row.import_tier || null,
    tiers: row.tiers || null,
    newsletters: row.newsletters || null,
  }));
  return Papa.unparse(data, { escapeFormulae: true, columns });
}
