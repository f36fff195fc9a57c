import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { preparedQuery } from '../db/prepared.js';
import type { ReadDb } from '../db/read-db.js';
import type { Engine } from '../db/engine.js';
import { allOf, type Cond } from '../filter/compile.js';
import { filterCondition, type FilterRules } from '../filter/filter.js';
import { renderCondition } from '../filter/render.js';
import type { FilterSpec } from '../filter/spec.js';
import { applyOrder, countAlias, orderTables, parseOrder, slugListOrder, type OrderSpec, type OrderTerm } from './order.js';
import { paginationMeta, sqlWindow } from './pagination.js';
import type { BrowseParams } from './params.js';

export type Api = 'admin' | 'content';
type Eb = ExpressionBuilder<any, any>;

/**
 * Everything the shared browse machinery needs to know about one resource, as a plain declaration:
 * which columns a filter may name and how shorthands expand (`filter`), what `order` may name and its
 * defaults (`order`, `defaultOrder`), which columns rows hold (`columns`), which output fields are computed
 * from which columns (`computed`), which counts `include` can add, and each API's rules and scope.
 */
export interface BrowseSpec {
  table: string;
  filter: FilterSpec;
  order: OrderSpec;
  /** Columns of `table` a row can carry; `fields` selects among these (plus `alwaysRead`). */
  columns: readonly string[];
  /** Read whatever `fields` says: the row key and what presenters or includes rely on. */
  alwaysRead: readonly string[];
  /** Output fields computed from columns (`url` needs `slug`): asked for by `fields`, they add those columns. */
  computed?: Readonly<Record<string, readonly string[]>>;
  /** Counts `include` can add, as correlated subqueries selected as `count__<name>`. */
  counts?: Readonly<Record<string, (api: Api) => (eb: Eb) => SelectQueryBuilder<any, any, { n: number }>>>;
  /**
   * Columns large enough (a post's html and plaintext) that a page reading any of them on SQLite reads its
   * ordered ids first and then those rows: sorting whole rows to keep a page of them made SQLite copy every matching row's
   * html (3.1 ms against 0.1 ms for the ids over 200 posts of ~1,000 words).
   */
  wideColumns?: readonly string[];
  api: Readonly<Partial<Record<Api, ApiRules>>>;
}

export interface ApiRules {
  /** Filter rules; a function when they depend on the request (Admin posts look for `status:` in it). */
  filter?: FilterRules | ((params: BrowseParams) => FilterRules);
  /** Order when the request has none: terms, or [] for the database's own order. */
  defaultOrder: (params: BrowseParams) => OrderTerm[];
  /** Content API: `slug:[…]` in the filter orders rows as listed when no `order` is given. */
  slugListOrder?: boolean;
  /** Columns this API never reads (Content posts: the mobiledoc/lexical sources, the largest columns). */
  hiddenColumns?: readonly string[];
  /**
   * Columns read in part unless `formats` names them, as the expression reading that part of the column it is
   * given (Content posts: plaintext is only the excerpt's source without `formats=plaintext`).
   */
  partialColumns?: Readonly<Record<string, (column: string) => RawBuilder<unknown>>>;
  /** Rows outside it do not exist for this API (Content tags/authors: only those with published posts). */
  scope?: (eb: Eb) => Expression<SqlBool>;
  /** What `search=` matches (members: name or e-mail); without it the parameter is ignored. */
  search?: (eb: Eb, text: string) => Expression<SqlBool>;
}

export interface BrowseResult<Row> {
  rows: Row[];
  meta: ReturnType<typeof paginationMeta>;
}

/** The condition of a browse request (client filter merged with the API's rules). */
export function browseCondition(spec: BrowseSpec, api: Api, params: BrowseParams): Cond | null {
  const rules = spec.api[api]?.filter;
  return allOf(filterCondition(spec.filter, params.filter ?? undefined, typeof rules === 'function' ? rules(params) : rules));
}

/** ORDER BY terms of a browse request: the client's, else the slug list's, else the resource default. */
export function browseOrder(spec: BrowseSpec, api: Api, params: BrowseParams): OrderTerm[] {
  const rules = spec.api[api]!;
  if (params.order !== null) return parseOrder(params.order, spec.order, new Set(params.include));
  const bySlug = rules.slugListOrder ? slugListOrder(params.filter ?? undefined, spec.table) : null;
  return bySlug ? [bySlug] : rules.defaultOrder(params);
}

/** Columns to read for `fields` (all of them without it). */
export function browseColumns(spec: BrowseSpec, fields: readonly string[] | null, hidden: readonly string[] = []): string[] {
  if (!fields) return spec.columns.filter((column) => !hidden.includes(column));
  const wanted = new Set(spec.alwaysRead);
  for (const field of fields) {
    if (spec.columns.includes(field)) wanted.add(field);
    const needs = spec.computed && Object.prototype.hasOwnProperty.call(spec.computed, field) ? spec.computed[field]! : [];
    for (const column of needs) wanted.add(column);
  }
  return spec.columns.filter((column) => wanted.has(column) && !hidden.includes(column));
}

/**
 * The queries of one browse shape, compiled once (db/prepared.ts): conditions, order and columns checked up
 * front (a bad filter or order fails here, before anything is read). `page` reads the rows in order; `keys`
 * only the ordered ids (`limit=all` streams by them); `rowsById` the rows of some of those ids.
 */
function browseQueries(engine: Engine, spec: BrowseSpec, api: Api, params: BrowseParams, cond: Cond | null) {
  const rules = spec.api[api]!;
  const where = cond ? renderCondition(cond, spec.filter, engine) : null;
  const order = browseOrder(spec, api, params);

  const scoped = (database: ReadDb) => {
    let query = (database as unknown as Kysely<any>).selectFrom(spec.table);
    if (rules.scope) query = query.where(rules.scope);
    if (rules.search && params.search !== null) query = query.where((eb: Eb) => rules.search!(eb, params.search!));
    if (where) query = query.where(where);
    return query;
  };

  const columns = browseColumns(spec, params.fields ? [...params.fields, ...(params.formats ?? [])] : null, rules.hiddenColumns);
  // A count the order sorts by rides along as a subquery (`count__posts`); presenters load displayed
  // counts for the page in one query of their own.
  const withOrderCounts = (query: SelectQueryBuilder<any, any, any>) => {
    let out = query;
    for (const name of params.include) {
      const count = spec.counts && Object.prototype.hasOwnProperty.call(spec.counts, name) ? spec.counts[name] : undefined;
      if (count && order.some((term) => term.kind === 'expression' && term.count === name)) out = out.select((eb: Eb) => count(api)(eb).as(countAlias(name)));
    }
    return out;
  };
  const ordered = (query: SelectQueryBuilder<any, any, any>) => {
    let out = withOrderCounts(query);
    for (const table of orderTables(order, spec.table)) out = joinForOrder(out, spec, table);
    return applyOrder(out, order, spec.order, engine);
  };
  const partial = (column: string) =>
    rules.partialColumns && Object.prototype.hasOwnProperty.call(rules.partialColumns, column) && !params.formats?.includes(column)
      ? rules.partialColumns[column]!
      : null;
  const selected = columns.map((column) => {
    const part = partial(column);
    return part ? part(`${spec.table}.${column}`).as(column) : `${spec.table}.${column}`;
  });
  const rowColumns = (database: ReadDb) => scoped(database).select(selected);

  // SQLite only: a server sorts wide rows by reference (PostgreSQL's TOAST, MySQL's sort by row id), and there a
  // second query is a round trip.
  const wide = engine.inProcess && (spec.wideColumns?.some((column) => columns.includes(column)) ?? false);
  const keys = preparedQuery((db, $: Window) =>
    ordered(scoped(db).select(`${spec.table}.id as id`))
      .limit($.limit)
      .offset($.offset),
  );
  const allKeys = preparedQuery((db) => ordered(scoped(db).select(`${spec.table}.id as id`)));
  const byId = preparedQuery((db, $: { ids: string[] }) => withOrderCounts(rowColumns(db).where(`${spec.table}.id`, 'in', $.ids)));

  return {
    wide,
    /** Wide shapes: the total of the last first page read, or null (see browseRows). */
    lastTotal: null as number | null,
    page: preparedQuery((db, $: Window) => ordered(rowColumns(db)).limit($.limit).offset($.offset)),
    all: preparedQuery((db) => ordered(rowColumns(db))),
    count: preparedQuery((db) => scoped(db).select(sql<number>`count(*)`.as('total'))),
    keys: async (db: ReadDb, window: Window): Promise<string[]> => (await keys(db, window)).map((row) => row.id as string),
    allKeys: async (db: ReadDb): Promise<string[]> => (await allKeys(db, {})).map((row) => row.id as string),
    rowsById: async <Row>(db: ReadDb, ids: readonly string[]): Promise<Row[]> => {
      if (ids.length === 0) return [];
      const rows = (await byId(db, { ids: [...ids] })) as (Row & { id: string })[];
      const position = new Map(ids.map((id, index) => [id, index]));
      return rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
    },
  };
}

type Window = { offset: number; limit: number };
type BrowseQueries = ReturnType<typeof browseQueries>;

/**
 * Browse queries kept per shape: per resource, per condition tree (the filter's, itself kept per filter text,
 * and built afresh when it holds a relative date, so such a shape is compiled per request), and per the rest
 * of the request that shapes the SQL. `search` text is part of the SQL's shape too: those requests compile
 * their own.
 */
const kept = new WeakMap<BrowseSpec, WeakMap<object, Map<string, BrowseQueries>>>();
const NO_CONDITION = {};
const SHAPES_PER_CONDITION = 50;

function queriesFor(engine: Engine, spec: BrowseSpec, api: Api, params: BrowseParams): BrowseQueries {
  const cond = browseCondition(spec, api, params);
  if (params.search !== null) return browseQueries(engine, spec, api, params, cond);
  let byCondition = kept.get(spec);
  if (!byCondition) kept.set(spec, (byCondition = new WeakMap()));
  let shapes = byCondition.get(cond ?? NO_CONDITION);
  if (!shapes) byCondition.set(cond ?? NO_CONDITION, (shapes = new Map()));
  const key = JSON.stringify([engine.kind, api, params.filter, params.order, params.fields, params.formats, params.include]);
  let queries = shapes.get(key);
  if (!queries) {
    queries = browseQueries(engine, spec, api, params, cond);
    if (shapes.size >= SHAPES_PER_CONDITION) shapes.delete(shapes.keys().next().value!);
    shapes.set(key, queries);
  }
  return queries;
}

/**
 * One page of rows: a COUNT query (skipped for `limit=all`) and the page query, whatever the filter or the
 * includes — counts ride along as subqueries, so the query count does not grow with the page.
 */
export async function browseRows<Row>(database: ReadDb, engine: Engine, spec: BrowseSpec, api: Api, params: BrowseParams): Promise<BrowseResult<Row>> {
  const queries = queriesFor(engine, spec, api, params);
  const window = sqlWindow(params.page);
  if (window.limit === null) {
    const rows = (await queries.all(database, {})) as Row[];
    return { rows, meta: paginationMeta(params.page, rows.length) };
  }
  const limited = { offset: window.offset, limit: window.limit };
  if (!engine.inProcess) {
    // A database server runs the COUNT on another connection while the page is read.
    const pageRows = queries.wide
      ? queries.keys(database, limited).then((ids) => queries.rowsById<Row>(database, ids))
      : (queries.page(database, limited) as Promise<Row[]>);
    const [rows, [counted]] = await Promise.all([pageRows, queries.count(database, {})]);
    return { rows, meta: paginationMeta(params.page, Number(counted?.total ?? 0)) };
  }
  if (queries.wide && limited.offset === 0 && queries.lastTotal !== null && queries.lastTotal <= limited.limit) {
    // Wide rows whose last first page held them all (a site's pages): every id in order is the count too, one
    // statement fewer. Should the rows have grown past the page since, the answer is the same (the first
    // `limit` ids, the total of them all) and only the ids were read in excess, once.
    const ids = await queries.allKeys(database);
    queries.lastTotal = ids.length;
    return { rows: await queries.rowsById<Row>(database, ids.slice(0, limited.limit)), meta: paginationMeta(params.page, ids.length) };
  }
  // In process the queries run one after the other anyway, and the COUNT goes first: SQLite keeps an ORDER BY
  // with a LIMIT in a temporary B-tree of its own, opened per query (~50 µs, more than reading a short page
  // costs), and sorts one without a LIMIT in memory. A first page that holds every row (a site's pages, its
  // authors, most tag lists) is read without one; a page past the last row reads nothing.
  const [counted] = await queries.count(database, {});
  const total = Number(counted?.total ?? 0);
  if (limited.offset === 0) queries.lastTotal = total;
  let rows: Row[];
  if (limited.offset >= total) rows = [];
  else if (limited.offset === 0 && total <= limited.limit) {
    // A row added since the COUNT stays off this page, as under the LIMIT.
    rows = queries.wide
      ? await queries.rowsById<Row>(database, (await queries.allKeys(database)).slice(0, limited.limit))
      : ((await queries.all(database, {})) as Row[]).slice(0, limited.limit);
  } else {
    rows = queries.wide ? await queries.rowsById<Row>(database, await queries.keys(database, limited)) : ((await queries.page(database, limited)) as Row[]);
  }
  return { rows, meta: paginationMeta(params.page, total) };
}

/**
 * `limit=all` without holding every row: the first page is read as an ordinary ordered page (wide rows:
 * every id in order first, then the rows by id, page after page); when it is full, the ids after it are read
 * in one query (24 bytes a row, and any order Ghost accepts — slug lists,
 * counts, expressions — applies to it unchanged), then their rows `pageSize` ids at a time, under the same
 * conditions (a row that stopped matching in between is left out). The first page is read before this
 * returns, so whatever can fail in the queries fails before an answer starts; a result that fits in one
 * page costs one query, as an unstreamed `limit=all` does.
 */
export async function browseAllPages<Row>(
  database: ReadDb,
  engine: Engine,
  spec: BrowseSpec,
  api: Api,
  params: BrowseParams,
  pageSize: number,
): Promise<AsyncIterable<Row[]>> {
  const queries = queriesFor(engine, spec, api, params);
  let first: Row[];
  let rest: string[];
  if (queries.wide) {
    // Wide rows: every id in order at once, then the rows page by page.
    const ids = await queries.allKeys(database);
    first = await queries.rowsById<Row>(database, ids.slice(0, pageSize));
    rest = ids.slice(pageSize);
  } else {
    first = (await queries.page(database, { offset: 0, limit: pageSize })) as Row[];
    rest = first.length < pageSize ? [] : await queries.keys(database, { offset: pageSize, limit: Number.MAX_SAFE_INTEGER });
  }
  async function* pages(): AsyncGenerator<Row[]> {
    yield first;
    for (let start = 0; start < rest.length; start += pageSize) yield queries.rowsById<Row>(database, rest.slice(start, start + pageSize));
  }
  return pages();
}

/** Order terms on a one-to-one relation (posts ordered by `posts_meta.meta_title`) need its row. */
function joinForOrder(query: any, spec: BrowseSpec, table: string) {
  const relation = Object.values(spec.filter.relations ?? {}).find((r) => r.kind === 'oneToOne' && r.table === table);
  if (!relation || relation.kind !== 'oneToOne') throw new Error(`no join declared for ordering by ${table}`);
  return query.leftJoin(table, `${table}.${relation.joinFrom}`, `${spec.table}.id`);
}
