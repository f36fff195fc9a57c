import { errors } from '../errors.js';
import type { NqlNode } from './nql.js';
import type { FieldType, FilterSpec, RelationSpec } from './spec.js';
import { coerce, invalidValue, isInvalid, likePattern, regexToMatch, type Coerced } from './values.js';

/**
 * NQL's Mongo-like JSON → a condition tree with every column resolved and every value converted to its
 * column's type. It follows `@tryghost/mongo-knex`'s semantics, which define what a Ghost filter means:
 * - `+` / `,` groups are AND / OR; a statement with no known operator is ignored, an empty group too;
 * - `x:null` is IS NULL, `x:-null` IS NOT NULL, any other operator with null is IS NULL;
 * - `-`, `-[…]`, `-~` on a column exclude its NULL rows (SQL `!=`, `NOT IN`, `NOT LIKE`);
 * - statements on a relation (`tags.slug`, `authors.slug` …) become EXISTS subqueries, one per relation
 *   within a group, except that a column repeated in the group or a negation gets its own subquery: so
 *   `tag:a+tag:b` needs both tags, `tags.slug:a+tags.visibility:public` needs one tag that is both, and
 *   `tag:-a` is NOT EXISTS (posts without tags included). Statements on the join table
 *   (`posts_tags.sort_order`) in an AND group restrict every subquery's join instead.
 * Deliberate differences: parenthesised groups nested in parentheses are honoured (Ghost ignores
 * `((a:1))`), `~` works on relation columns, and NULL inside `-[…]` does not empty the result.
 */
export type Column = { table: string; column: string; type: FieldType };
export type CmpOp = '=' | '<>' | '>' | '>=' | '<' | '<=' | 'in' | 'not in';

export type Cond =
  | { kind: 'and' | 'or'; parts: Cond[] }
  | { kind: 'cmp'; column: Column; op: CmpOp; value: Coerced | Coerced[] }
  | { kind: 'null'; column: Column; not: boolean }
  | { kind: 'like'; column: Column; pattern: string; not: boolean }
  | { kind: 'exists'; relation: string; not: boolean; where: Cond | null; join: Cond[] }
  | { kind: 'false' };

type Mode = 'and' | 'or';
const OPS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$regex', '$not'] as const;
type Op = (typeof OPS)[number];
const isNegation = (op: Op) => op === '$ne' || op === '$nin';
const has = (object: object | undefined, key: string) => !!object && Object.prototype.hasOwnProperty.call(object, key);

interface RelationStatement {
  relation: string;
  /** Ghost groups by this: the relation name, or (join-table statements) the related table's name. */
  groupKey: string;
  column: Column;
  joinTable: boolean;
  op: Op;
  value: unknown;
}

type Resolved = { kind: 'column'; column: Column } | { kind: 'relation'; statement: Omit<RelationStatement, 'op' | 'value'> } | { kind: 'ignored' };

/** Longest field name an error repeats back: a filter may be 100,000 characters long. */
const MAX_ECHOED_KEY = 100;

/** `'posts.nope'`, shortened when a client sent something huge. */
const quoted = (key: string) => `'${key.length > MAX_ECHOED_KEY ? `${key.slice(0, MAX_ECHOED_KEY)}…` : key}'`;

/** The names a filter on `spec` may use, for the error that refuses another one. */
function knownFields(spec: FilterSpec): string {
  const relations = Object.entries(spec.relations ?? {})
    .filter(([, relation]) => relation.kind !== 'ignored')
    .map(([name]) => `${name}.<field>`);
  return [...Object.keys(spec.fields), ...relations].join(', ');
}

export class FilterCompiler {
  constructor(private readonly spec: FilterSpec) {}

  /** The whole filter; null when nothing is left to apply. */
  compile(node: NqlNode): Cond | null {
    const parts: Cond[] = [];
    this.into(node, 'and', parts, null);
    return combine(parts, 'and');
  }

  private group(children: NqlNode[], mode: Mode): Cond | null {
    const parts: Cond[] = [];
    const relations: RelationStatement[] = [];
    for (const child of children) this.into(child, mode, parts, relations);
    parts.push(...this.relationConditions(relations, mode));
    return combine(parts, mode);
  }

  /** Statements of one object; relation statements are collected for the group, or built at once at top level. */
  private into(node: NqlNode, mode: Mode, parts: Cond[], relations: RelationStatement[] | null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$and' || key === '$or') {
        const cond = this.group(Array.isArray(value) ? (value as NqlNode[]) : [], key === '$and' ? 'and' : 'or');
        if (cond) parts.push(cond);
      } else if (key === 'yg') {
        const cond = this.group([value as NqlNode], 'and');
        if (cond) parts.push(cond);
      } else {
        this.statement(key, value, mode, parts, relations);
      }
    }
  }

  private statement(key: string, raw: unknown, mode: Mode, parts: Cond[], relations: RelationStatement[] | null) {
    const ops: [Op, unknown][] =
      raw !== null && typeof raw === 'object' && !Array.isArray(raw) && !(raw instanceof RegExp)
        ? Object.entries(raw).filter((entry): entry is [Op, unknown] => (OPS as readonly string[]).includes(entry[0]))
        : [['$eq', raw]];
    if (ops.length === 0) return;
    const resolved = this.resolve(key);
    if (resolved.kind === 'ignored') return;
    for (const [op, value] of ops) {
      if (resolved.kind === 'column') {
        parts.push(comparison(resolved.column, op, value, key));
      } else {
        const statement = { ...resolved.statement, op, value };
        if (relations) relations.push(statement);
        else parts.push(...this.relationConditions([statement], mode));
      }
    }
  }

  /**
   * Ghost's status, type and message for a field it has no column for (it lets the database fail and puts the
   * driver's code in `code`); the field is named instead, and the code is the same on every engine.
   */
  private unknown(key: string): never {
    throw errors.badRequest({
      message: 'Could not understand request.',
      context: `Unknown filter field ${quoted(key)}.`,
      help: `Fields ${this.spec.table} can be filtered on: ${knownFields(this.spec)}.`,
      code: 'UNKNOWN_FILTER_FIELD',
    });
  }

  /** `title`, `posts.title`, `tags.slug`, `posts_tags.sort_order`: Ghost's `processStatement`. */
  private resolve(key: string): Resolved {
    const { spec } = this;
    const parts = key.split('.');
    if (parts.length === 1) {
      if (!has(spec.fields, key)) this.unknown(key);
      return { kind: 'column', column: { table: spec.table, column: key, type: spec.fields[key]! } };
    }
    const [table, column] = parts as [string, string];
    const relation = has(spec.relations, table) ? spec.relations![table]! : undefined;
    if (relation) {
      if (relation.kind === 'ignored') return { kind: 'ignored' };
      if (!has(relation.fields, column)) this.unknown(key);
      return { kind: 'relation', statement: { relation: table, groupKey: table, joinTable: false, column: { table, column, type: relation.fields[column]! } } };
    }
    const viaJoin = Object.entries(spec.relations ?? {}).find(([, r]) => r.kind === 'manyToMany' && r.joinTable === table) as
      [string, Extract<RelationSpec, { kind: 'manyToMany' }>] | undefined;
    if (viaJoin) {
      const [name, r] = viaJoin;
      if (!has(r.joinFields, column)) this.unknown(key);
      return { kind: 'relation', statement: { relation: name, groupKey: r.table, joinTable: true, column: { table, column, type: r.joinFields[column]! } } };
    }
    if (table === spec.table && parts.length === 2 && has(spec.fields, column)) {
      return { kind: 'column', column: { table, column, type: spec.fields[column]! } };
    }
    return this.unknown(key);
  }

  /** Ghost's `groupRelationStatements` + `buildRelationQuery`, as EXISTS / NOT EXISTS. */
  private relationConditions(statements: RelationStatement[], mode: Mode): Cond[] {
    const inner = mode === 'and' ? statements.filter((s) => !s.joinTable) : statements;
    const groups = new Map<string, RelationStatement[]>();
    inner.forEach((statement, index) => {
      let own = isNegation(statement.op);
      // In an AND group a repeated column needs its own subquery (`tag:a+tag:b`: two different tags). In an
      // OR group Ghost splits them too, but EXISTS(a) OR EXISTS(b) is EXISTS(a OR b): one subquery is enough.
      if (!own && mode === 'and') own = groups.get(statement.groupKey)?.some((s) => s.column.column === statement.column.column) ?? false;
      const key = own ? `${statement.groupKey}\u0000${index}` : statement.groupKey;
      groups.set(key, [...(groups.get(key) ?? []), statement]);
    });
    const joinFilters = mode === 'and' ? statements.filter((s) => s.joinTable) : [];
    return [...groups.values()].map((group) => {
      const relation = group[0]!.relation;
      const spec = this.spec.relations![relation]!;
      const negate = group.every((s) => isNegation(s.op));
      const conds = group.map((s) => (negate ? positiveOf(s, spec) : comparison(s.column, s.op, s.value, `${s.column.table}.${s.column.column}`)));
      const join =
        spec.kind === 'manyToMany'
          ? joinFilters.filter((s) => s.column.table === spec.joinTable).map((s) => comparison(s.column, s.op, s.value, `${s.column.table}.${s.column.column}`))
          : [];
      return { kind: 'exists', relation, not: negate, where: combine(conds, mode), join };
    });
  }
}

/** The condition a negated relation statement excludes: `tag:-a` is NOT EXISTS(tag a). */
function positiveOf(statement: RelationStatement, relation: RelationSpec): Cond {
  const { column, op, value } = statement;
  if (value === null) {
    // Ghost: `tag:-null` excludes posts having any tag; `meta_title:-null` keeps rows whose value is set.
    return { kind: 'null', column, not: relation.kind === 'manyToMany' };
  }
  return comparison(column, op === '$nin' ? '$in' : '$eq', value, `${column.table}.${column.column}`);
}

function comparison(column: Column, op: Op, value: unknown, field: string): Cond {
  if (op === '$regex' || op === '$not') {
    const match = regexToMatch(value);
    if (!match) return { kind: 'false' };
    if (column.type !== 'text' || match.text.includes('\0')) throw invalidValue(field, column.type);
    return { kind: 'like', column, pattern: likePattern(match.text, match.mode), not: op === '$not' };
  }
  if (op === '$in' || op === '$nin') {
    const list = Array.isArray(value) ? value : [value];
    const values = list.filter((v) => v !== null).map((v) => convert(v, column, field));
    const withNull = values.length < list.length;
    if (op === '$in') {
      const cond: Cond = values.length ? { kind: 'cmp', column, op: 'in', value: values } : { kind: 'false' };
      return cond;
    }
    const notIn: Cond | null = values.length ? { kind: 'cmp', column, op: 'not in', value: values } : null;
    if (withNull) return combine([{ kind: 'null', column, not: true }, ...(notIn ? [notIn] : [])], 'and')!;
    return notIn ?? { kind: 'false' };
  }
  if (value === null) return { kind: 'null', column, not: op === '$ne' };
  const sqlOp: CmpOp = ({ $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const)[op];
  return { kind: 'cmp', column, op: sqlOp, value: convert(value, column, field) };
}

function convert(value: unknown, column: Column, field: string): Coerced {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw invalidValue(field, column.type);
  const coerced = coerce(value, column.type);
  if (isInvalid(coerced)) throw invalidValue(field, column.type);
  return coerced;
}

function combine(parts: (Cond | null)[], mode: Mode): Cond | null {
  const present = mergeLists(
    parts.filter((part): part is Cond => part !== null),
    mode,
  );
  if (present.length === 0) return null;
  if (present.length === 1) return present[0]!;
  return { kind: mode, parts: present };
}

/**
 * `slug:a,slug:b,…` as `slug IN (a, b, …)` and `slug:-a+slug:-b` as `slug NOT IN (a, b)` (what Ghost's
 * combineNeFilters does for the latter): same rows, one short comparison instead of a long chain.
 */
function mergeLists(parts: Cond[], mode: Mode): Cond[] {
  const [single, list] = mode === 'or' ? (['=', 'in'] as const) : (['<>', 'not in'] as const);
  const merged = new Map<string, Extract<Cond, { kind: 'cmp' }>>();
  const out: Cond[] = [];
  for (const part of parts) {
    if (part.kind !== 'cmp' || (part.op !== single && part.op !== list)) {
      out.push(part);
      continue;
    }
    const key = `${part.column.table}.${part.column.column}`;
    const values: Coerced[] = Array.isArray(part.value) ? part.value : [part.value];
    const existing = merged.get(key);
    if (existing) {
      (existing.value as Coerced[]).push(...values);
    } else {
      const cond: Extract<Cond, { kind: 'cmp' }> = { kind: 'cmp', column: part.column, op: list, value: [...values] };
      merged.set(key, cond);
      out.push(cond);
    }
  }
  return out.map((part) =>
    part.kind === 'cmp' && part.op === list && (part.value as Coerced[]).length === 1 ? { ...part, op: single, value: (part.value as Coerced[])[0]! } : part,
  );
}

/** ANDs conditions (null = none). */
export function allOf(...conds: (Cond | null)[]): Cond | null {
  return combine(conds, 'and');
}
