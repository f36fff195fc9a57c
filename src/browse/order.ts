import { sql, type Expression, type SelectQueryBuilder } from 'kysely';
import type { Engine } from '../db/engine.js';
import { errors } from '../errors.js';
import type { FieldType, Fields } from '../filter/spec.js';

/** One ORDER BY term: a column, or an expression a resource declares (Ghost's raw default orders). */
export type OrderTerm =
  | { kind: 'column'; table: string; column: string; type: FieldType; direction: 'asc' | 'desc' }
  | { kind: 'expression'; expression: Expression<unknown>; direction: 'asc' | 'desc'; text?: boolean; count?: string };

export interface OrderSpec {
  /** The main table (its `id` breaks ties). */
  table: string;
  /**
   * Orderable attributes, qualified, in Ghost's order: a client field is the first attribute that *ends
   * with* it (Ghost's `orderAttributes().find(a => a.endsWith(field))`, so `title` → `posts.title`).
   */
  attributes: readonly { name: string; type: FieldType }[];
  /** Attributes orderable only when their count is included (`count.posts`), ordered by that alias. */
  counts?: readonly string[];
}

/** Ghost's `orderAttributes()`: every column of the table, qualified, in schema order. */
export function attributesOf(table: string, fields: Fields): { name: string; type: FieldType }[] {
  return Object.entries(fields).map(([name, type]) => ({ name: `${table}.${name}`, type }));
}

/** `order` as the api-framework validates it before the controller runs. */
export function assertOrderParam(raw: unknown): void {
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  for (const value of values) {
    if (typeof value !== 'string' || !/^[a-z0-9_,. ]+$/i.test(value))
      throw errors.validation({ message: 'Validation (matches) failed for order', context: 'undefined.order' });
  }
}

/**
 * Ghost's `parseOrderOption`: rules `field asc|desc` separated by commas (or repeated `order` params); a
 * rule without a direction or naming no known field is ignored; a field named twice keeps its first place
 * with the last direction. Returns [] when every rule was ignored (then Ghost sends no ORDER BY at all).
 */
export function parseOrder(raw: string | string[], spec: OrderSpec, included: ReadonlySet<string>): OrderTerm[] {
  const rules = (Array.isArray(raw) ? raw : [raw]).flatMap((value) => value.split(','));
  const chosen = new Map<string, OrderTerm>();
  for (const rule of rules) {
    const match = /^([a-z0-9_.]+)\s+(asc|desc)$/i.exec(rule.trim());
    if (!match) continue;
    const field = match[1]!.toLowerCase();
    const direction = match[2]!.toLowerCase() as 'asc' | 'desc';
    const count = (spec.counts ?? []).find((name) => included.has(name) && name.endsWith(field));
    const attribute = spec.attributes.find((candidate) => candidate.name.endsWith(field));
    if (attribute) {
      const [table, column] = attribute.name.split('.') as [string, string];
      chosen.set(attribute.name, { kind: 'column', table, column, type: attribute.type, direction });
    } else if (count) {
      chosen.set(count, { kind: 'expression', expression: sql.ref(countAlias(count)), direction, count });
    }
  }
  return [...chosen.values()];
}

/** Select alias of an included count (`count.posts` → `count__posts`, as Ghost names it). */
export const countAlias = (name: string) => name.replace('.', '__');

/** Tables other than the main one that the terms read (the caller joins them). */
export function orderTables(terms: readonly OrderTerm[], mainTable: string): Set<string> {
  return new Set(terms.flatMap((term) => (term.kind === 'column' && term.table !== mainTable ? [term.table] : [])));
}

/**
 * Applies the terms, then `<table>.id` so pages never overlap or skip rows when values tie (Ghost leaves
 * ties, and the whole order when no term survived, to the database). Text sorts byte-wise and NULL sorts
 * first ascending on every engine, as on SQLite.
 */
export function applyOrder<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  terms: readonly OrderTerm[],
  spec: Pick<OrderSpec, 'table'>,
  engine: Engine,
): SelectQueryBuilder<DB, TB, O> {
  const { text } = engine;
  let out = query;
  const add = (expression: Expression<unknown>, direction: 'asc' | 'desc') => {
    out = out.orderBy(expression as never, (ob) => {
      const ordered = direction === 'asc' ? ob.asc() : ob.desc();
      if (text.nullsSortFirst) return ordered;
      return direction === 'asc' ? ordered.nullsFirst() : ordered.nullsLast();
    });
  };
  let hasId = false;
  for (const term of terms) {
    if (term.kind === 'column') {
      const ref = sql.ref(`${term.table}.${term.column}`);
      if (term.table === spec.table && term.column === 'id') hasId = true;
      add(term.type === 'text' ? text.binary(ref) : ref, term.direction);
    } else {
      add(term.text ? text.binary(term.expression) : term.expression, term.direction);
    }
  }
  if (!hasId) add(sql.ref(`${spec.table}.id`), 'asc');
  return out;
}

/**
 * Content API: a filter listing slugs (`slug:[b,a,c]`) with no `order` returns rows in the listed order
 * (Ghost's slug-filter-order: the text between the first `slug:[` and the last `]`, split on commas,
 * unlisted rows first). The slugs are bound parameters here.
 */
export function slugListOrder(filter: string | undefined, table: string): OrderTerm | null {
  const match = filter ? /slug:\s?\[(.*)\]/.exec(filter) : null;
  if (!match) return null;
  const slugs = match[1]!.split(',');
  // Each slug is a bound parameter; a list longer than any real one is not worth ordering by.
  if (slugs.length > 1000 || slugs.some((slug) => slug.includes('\0'))) return null;
  const ref = sql.ref(`${table}.slug`);
  const cases = slugs.map((slug, index) => sql`when ${ref} = ${slug} then ${sql.lit(index)}`);
  return { kind: 'expression', expression: sql`case ${sql.join(cases, sql` `)} end`, direction: 'asc' };
}
