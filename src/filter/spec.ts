import type { Expansion } from './merge.js';

/**
 * How a column compares: text is compared byte-wise (case-sensitive, code-point order) on every engine,
 * dates and numbers by value, booleans as booleans. Values in a filter are converted to the column's type.
 */
export type FieldType = 'text' | 'date' | 'boolean' | 'number';

export type Fields = Readonly<Record<string, FieldType>>;

/**
 * A relation the filter may reach with `<name>.<column>` (Ghost's `filterRelations`).
 * - `manyToMany`: rows of `table` (aliased `name`) linked through `joinTable` (`joinFrom` = our id,
 *   `joinTo` = their id); `joinFields` are the join table's own columns (`posts_tags.sort_order`).
 * - `oneToOne`: the row of `table` whose `joinFrom` is our id, possibly missing (`posts_meta`).
 * - `ignored`: accepted and dropped, as Ghost drops one-to-many relations it cannot compile.
 */
export type RelationSpec =
  | { kind: 'manyToMany'; table: string; fields: Fields; joinTable: string; joinFrom: string; joinTo: string; joinFields: Fields }
  | { kind: 'oneToOne'; table: string; fields: Fields; joinFrom: string }
  | { kind: 'ignored' };

/** What the filter compiler needs to know about one resource. */
export interface FilterSpec {
  /** Main table; the compiled condition refers to it by this name. */
  table: string;
  /** Columns of the main table usable as `<column>` or `<table>.<column>`. */
  fields: Fields;
  relations?: Readonly<Record<string, RelationSpec>>;
  /** Shorthand keys, in Ghost's order (first match wins). Expansion filters are NQL text, parsed once. */
  expansions?: readonly ExpansionSpec[];
}

export interface ExpansionSpec {
  key: string;
  replacement: string;
  expansion?: string;
}

export type { Expansion };
