import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Engine } from '../db/engine.js';
import type { Column, Cond } from './compile.js';
import type { FilterSpec } from './spec.js';

// Conditions name tables chosen by the resource declaration, never by the client, so `any` here loses
// nothing: every identifier went through FilterCompiler.resolve(), every value is a bound parameter.
type Eb = ExpressionBuilder<any, any>;
export type Where = (eb: Eb) => Expression<SqlBool>;

const SELF = 'filter_self';

/** A condition tree as a Kysely where-callback for queries on `spec.table`. */
export function renderCondition(cond: Cond, spec: FilterSpec, engine: Engine): Where {
  return (eb) => render(eb, cond, spec, engine);
}

function ref(column: Column) {
  return sql.ref(`${column.table}.${column.column}`);
}

function render(eb: Eb, cond: Cond, spec: FilterSpec, engine: Engine): Expression<SqlBool> {
  const { text } = engine;
  switch (cond.kind) {
    case 'and':
    case 'or':
      return balanced(
        eb,
        cond.kind,
        cond.parts.map((part) => render(eb, part, spec, engine)),
      );
    case 'false':
      return sql<SqlBool>`1 = 0`;
    case 'null':
      return eb(ref(cond.column), cond.not ? 'is not' : 'is', null);
    case 'like':
      return sql<SqlBool>`${text.binary(text.lower(ref(cond.column)))} ${sql.raw(cond.not ? 'not like' : 'like')} ${cond.pattern} escape '!'`;
    case 'cmp': {
      const column = ref(cond.column);
      const value = Array.isArray(cond.value) ? cond.value : cond.value;
      if (cond.column.type !== 'text') return eb(column, cond.op, value as never);
      // Byte-wise text: where plain `=` already is (SQLite, PostgreSQL) it stays index-friendly; MySQL's
      // `_ci` collation needs the binary test, kept next to the plain one so an index still narrows rows.
      if (cond.op === '=' || cond.op === 'in') {
        if (text.equalityIsBinary) return eb(column, cond.op, value as never);
        return eb.and([eb(column, cond.op, value as never), eb(text.binary(column), cond.op, value as never)]);
      }
      if ((cond.op === '<>' || cond.op === 'not in') && text.equalityIsBinary) return eb(column, cond.op, value as never);
      return eb(text.binary(column), cond.op, value as never);
    }
    case 'exists':
      return renderExists(eb, cond, spec, engine);
  }
}

/**
 * `a OR b OR c …` nested as a balanced tree: SQLite parses a flat chain into a tree as deep as the chain is
 * long and refuses trees deeper than 1000, which a long (valid) filter would otherwise reach.
 */
function balanced(eb: Eb, kind: 'and' | 'or', parts: Expression<SqlBool>[]): Expression<SqlBool> {
  if (parts.length <= 8) return kind === 'and' ? eb.and(parts) : eb.or(parts);
  const half = Math.ceil(parts.length / 2);
  const halves = [balanced(eb, kind, parts.slice(0, half)), balanced(eb, kind, parts.slice(half))];
  return kind === 'and' ? eb.and(halves) : eb.or(halves);
}

function renderExists(eb: Eb, cond: Extract<Cond, { kind: 'exists' }>, spec: FilterSpec, engine: Engine): Expression<SqlBool> {
  const relation = spec.relations![cond.relation]!;
  let query;
  if (relation.kind === 'manyToMany') {
    const joined = relation.table === cond.relation ? relation.table : `${relation.table} as ${cond.relation}`;
    query = eb
      .selectFrom(relation.joinTable)
      .innerJoin(joined, (join) => {
        let on = join.onRef(`${cond.relation}.id`, '=', `${relation.joinTable}.${relation.joinTo}`);
        for (const extra of cond.join) on = on.on((jeb: Eb) => render(jeb, extra, spec, engine));
        return on;
      })
      .select(`${relation.joinTable}.${relation.joinFrom}`);
    // A match is an id in the join table's list, read once: SQLite runs a correlated EXISTS once per row of
    // the table (a tag filter over 200 posts cost twice what the list does). A negated match keeps NOT EXISTS,
    // which needs no rule about NULLs and which the server engines plan as an anti-join.
    if (!cond.not) return eb(`${spec.table}.id`, 'in', withWhere(query, cond, spec, engine));
    query = query.whereRef(`${relation.joinTable}.${relation.joinFrom}`, '=', `${spec.table}.id`);
  } else if (relation.kind === 'oneToOne') {
    // A missing row must read as NULLs (`meta_title:null` matches posts without a posts_meta row).
    query = eb
      .selectFrom(`${spec.table} as ${SELF}`)
      .leftJoin(relation.table, `${relation.table}.${relation.joinFrom}`, `${SELF}.id`)
      .select(sql.lit(1).as('one'))
      .whereRef(`${SELF}.id`, '=', `${spec.table}.id`);
  } else {
    return sql<SqlBool>`1 = 1`;
  }
  query = withWhere(query, cond, spec, engine);
  return cond.not ? eb.not(eb.exists(query)) : eb.exists(query);
}

function withWhere<Q extends { where: (callback: (web: Eb) => Expression<SqlBool>) => Q }>(
  query: Q,
  cond: Extract<Cond, { kind: 'exists' }>,
  spec: FilterSpec,
  engine: Engine,
): Q {
  const where = cond.where;
  return where ? query.where((web: Eb) => render(web, where, spec, engine)) : query;
}
