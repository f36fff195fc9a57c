import type { FilterSpec } from '../filter/spec.js';
import type { BrowseSpec } from './browse.js';
import { listColumns, queryFields, typeOf, type AnyFieldMap } from './fields.js';
import { attributesOf, type OrderTerm } from './order.js';

/** What a resource declares beyond its table and field map. */
export type SpecOfFields = Omit<BrowseSpec, 'table' | 'filter' | 'order' | 'columns' | 'alwaysRead'> & {
  /** The filter, when it names more than the map's columns (relations, expansions); by default the map's query fields. */
  filter?: FilterSpec;
  /** By default the id. */
  alwaysRead?: readonly string[];
};

/**
 * A browse spec for `table` described by its field map: `filter` and `order` may name the map's query
 * fields (and `order` each count `include` can add), a browse reads the map's list columns.
 */
export function browseSpecOf(table: string, fields: AnyFieldMap, spec: SpecOfFields): BrowseSpec {
  const filter = spec.filter ?? { table, fields: queryFields(fields) };
  return {
    ...spec,
    table,
    filter,
    order: { table, attributes: attributesOf(table, filter.fields), counts: Object.keys(spec.counts ?? {}) },
    columns: listColumns(fields),
    alwaysRead: spec.alwaysRead ?? ['id'],
  };
}

/** Order terms on `table`'s own columns, each typed as the field map says. */
export function columnOrder<M extends AnyFieldMap>(table: string, fields: M): (column: keyof M & string, direction: 'asc' | 'desc') => OrderTerm {
  return (column, direction) => ({ kind: 'column', table, column, type: typeOf(fields[column]!), direction });
}
