import { isEmail, isURL } from './string-checks.js';
import { errors } from '../errors.js';

/**
 * Ghost's model-level column checks (`core/server/data/schema/validator.js` and the limits its models add),
 * declared once per table in the resource's `<resource>.rules.ts` and run by `checkColumns`. Columns are
 * checked one at a time in the declared order, which is Ghost's schema order: the first failing column is
 * the one reported, with Ghost's message and `<table>.<column>` as context.
 */
export type ColumnRule =
  { type: 'text'; maxLength: number; nullable?: false; isEmail?: true; isURL?: true } | { type: 'boolean' } | { type: 'enum'; values: readonly string[] };

export interface TableRules<R extends Record<string, ColumnRule>> {
  table: string;
  columns: R;
  /** How the model reads a value as text; the default is the users model's (numbers and booleans stringified). */
  toText?: (value: unknown, column: keyof R & string) => string | null;
}

type ValueOf<Rule> = Rule extends { type: 'boolean' }
  ? boolean
  : Rule extends { type: 'enum'; values: readonly (infer V)[] }
    ? V
    : Rule extends { nullable: false }
      ? string
      : string | null;

/** What `checkColumns` returns: each declared column's stored type. */
export type ColumnValues<R extends Record<string, ColumnRule>> = { [K in keyof R]?: ValueOf<R[K]> };

export interface CheckOptions<C extends string> {
  /** The stored row: only values that differ from it are checked, so a legacy value nobody touches never blocks a save. */
  current?: { readonly [K in C]?: unknown };
  /** The model's normalisation of a text value (URL fixing and the like), before it is compared and checked. */
  normalise?: (column: C, value: string) => string;
}

export const columnRules = <const R extends Record<string, ColumnRule>>(rules: TableRules<R>): TableRules<R> => rules;

const invalid = (table: string, column: string, message: string) => errors.validation({ message, context: `${table}.${column}` });

/** Code points, as validator's `isLength` counts. */
const lengthOf = (value: string) => [...value].length;

function defaultText(table: string) {
  return (value: unknown, column: string): string | null => {
    if (value === null || value === undefined) return null;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw invalid(table, column, `Validation (isString) failed for ${column}`);
  };
}

function asBoolean(table: string, column: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1 || value === '0' || value === '1') return Number(value) === 1;
  if (value === 'true' || value === 'false') return value === 'true';
  throw invalid(table, column, `Value in [${table}.${column}] must be one of true, false, 0 or 1.`);
}

function checkText(table: string, column: string, rule: Extract<ColumnRule, { type: 'text' }>, value: string | null): void {
  if (value === null || value === '') {
    if (rule.nullable === false) throw invalid(table, column, `Value in [${table}.${column}] cannot be blank.`);
    return;
  }
  if (lengthOf(value) > rule.maxLength) {
    throw invalid(table, column, `Value in [${table}.${column}] exceeds maximum length of ${rule.maxLength} characters.`);
  }
  if (rule.isEmail && !isEmail(value)) throw invalid(table, column, `Validation (isEmail) failed for ${column}`);
  if (rule.isURL && !isURL(value, { require_protocol: false })) throw invalid(table, column, `Validation (isEmptyOrURL) failed for ${column}`);
}

/**
 * The declared columns present in `input`, read, normalised and checked as Ghost's model does; returns the
 * values to store (unchanged ones left out when `current` is given). Empty text in a nullable column is null.
 */
export function checkColumns<R extends Record<string, ColumnRule>>(
  rules: TableRules<R>,
  input: { readonly [K in keyof R]?: unknown },
  options: CheckOptions<keyof R & string> = {},
): ColumnValues<R> {
  const { table } = rules;
  const toText = rules.toText ?? defaultText(table);
  const out: Record<string, string | boolean | null> = {};
  for (const [column, rule] of Object.entries(rules.columns) as [keyof R & string, ColumnRule][]) {
    if (!(column in input)) continue;
    const raw = input[column];
    if (rule.type === 'boolean') {
      if (options.current && raw === options.current[column]) continue;
      out[column] = asBoolean(table, column, raw);
      continue;
    }
    let value = toText(raw, column);
    if (value === '' && rule.type === 'text' && rule.nullable !== false) value = null;
    if (value !== null && options.normalise) value = options.normalise(column, value);
    if (options.current && value === options.current[column]) continue;
    if (rule.type === 'enum') {
      if (value === null || !rule.values.includes(value)) throw invalid(table, column, `Validation (isIn) failed for ${column}`);
    } else {
      checkText(table, column, rule, value);
    }
    out[column] = value;
  }
  return out as ColumnValues<R>;
}
