import type { FieldType, Fields } from '../filter/spec.js';

/**
 * One column of a resource's table. A bare type is an ordinary Ghost column: filter and order may name
 * it and a browse reads it. The object form says where it is out of bounds:
 * - `query: false`: not a column Ghost has (ours, like `posts.reading_time`) or a secret, so `filter`
 *   and `order` cannot name it;
 * - `list: false`: a browse never reads it (the password hash).
 */
export type Field = FieldType | { readonly type: FieldType; readonly query?: false; readonly list?: false };

/**
 * A resource's table described once, in schema order (`order=<field>` takes the first column ending with
 * it, as Ghost does). Declared `as const satisfies FieldMap<Row>`, so a column added to the row type and
 * not here, or named here and not in the row type, fails to compile.
 */
export type FieldMap<Row> = { readonly [Column in keyof Row]-?: Field };

export type AnyFieldMap = Readonly<Record<string, Field>>;

/** The type a column compares and orders as. */
export const typeOf = (field: Field): FieldType => (typeof field === 'string' ? field : field.type);

/** The columns `filter` and `order` may name, with the type each compares as. */
export function queryFields(map: AnyFieldMap): Fields {
  return Object.fromEntries(
    Object.entries(map)
      .filter(([, field]) => typeof field === 'string' || field.query !== false)
      .map(([name, field]) => [name, typeOf(field)]),
  );
}

/** The columns a browse reads. */
export function listColumns(map: AnyFieldMap): string[] {
  return Object.entries(map)
    .filter(([, field]) => typeof field === 'string' || field.list !== false)
    .map(([name]) => name);
}

/**
 * Every column of the map, for `select(...)` in place of `selectAll()`: the query names what it reads, so a
 * column a migration or an import adds to the table is not read until the row type and the map have it.
 */
export function columnsOf<Row>(map: FieldMap<Row>): (keyof Row & string)[] {
  return Object.keys(map) as (keyof Row & string)[];
}
