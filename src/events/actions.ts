import {
  AliasNode,
  AndNode,
  BinaryOperationNode,
  ColumnNode,
  DeleteQueryNode,
  FromNode,
  InsertQueryNode,
  OperatorNode,
  ParensNode,
  PrimitiveValueListNode,
  ReferenceNode,
  SelectQueryNode,
  TableNode,
  UpdateQueryNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  WhereNode,
  sql,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { Db } from '../db/connect.js';
import type { ReadDb } from '../db/read-db.js';
import { objectId } from '../db/ids.js';

/**
 * The audit trail (`GET /actions/`), recorded for every write through `ctx.write` without services
 * knowing: a Kysely plugin on the write's transaction watches its inserts, updates and deletes of the
 * tables Ghost audits (its models with `actionsCollectCRUD`), and at the end of the attempt one action
 * per record and event is inserted in the same transaction. An insert gives one action per row; an update
 * or delete naming one record by id (`where id = …`) gives one for that record; any other (several ids, a
 * filter) gives one action without `resource_id` and with `context.count`, as Ghost's bulk actions do.
 */

/** Who an action is recorded against; writes without one (jobs, the CLI, setup) are not audited, as in Ghost. */
export interface ActionActor {
  id: string;
  type: 'user' | 'integration';
}

type Event = 'added' | 'edited' | 'deleted';

interface Audited {
  /** Ghost's `actionsResourceType`. */
  type: string;
  /** The column statements name records by (settings are written by key). */
  key: 'id' | 'key';
  /** Ghost names a record by its `title`, else `name`, else `email` (`primary_name`): those this table has. */
  names: readonly string[];
  /** Ghost's `actionsExtraContext`: columns copied into the context. */
  extra?: readonly string[];
}

const AUDITED: Readonly<Record<string, Audited>> = {
  posts: { type: 'post', key: 'id', names: ['title'], extra: ['type'] },
  tags: { type: 'tag', key: 'id', names: ['name'] },
  users: { type: 'user', key: 'id', names: ['name', 'email'] },
  snippets: { type: 'snippet', key: 'id', names: ['name'] },
  integrations: { type: 'integration', key: 'id', names: ['name'] },
  api_keys: { type: 'api_key', key: 'id', names: [] },
  webhooks: { type: 'webhook', key: 'id', names: ['name'] },
  invites: { type: 'invite', key: 'id', names: ['email'], extra: ['status', 'role_id'] },
  labels: { type: 'label', key: 'id', names: ['name'] },
  offers: { type: 'offer', key: 'id', names: ['name'] },
  products: { type: 'product', key: 'id', names: ['name'] },
  members: { type: 'member', key: 'id', names: ['name', 'email'] },
  settings: { type: 'setting', key: 'key', names: [], extra: ['key', 'group'] },
};

/** The columns an action is written from. */
const columnsOf = (audited: Audited) => [...new Set(['id', audited.key, ...audited.names, ...(audited.extra ?? [])])];

interface Change {
  table: string;
  event: Event;
  /** Key values the statement named, or null when it named its records some other way. */
  keys: unknown[] | null;
  /** Column values the statement wrote (the first row of an insert). */
  values: Record<string, unknown>[];
}

function tableName(node: OperationNode | undefined): string | null {
  if (!node) return null;
  if (TableNode.is(node)) return node.table.identifier.name;
  if (AliasNode.is(node)) return tableName(node.node);
  if (FromNode.is(node) && node.froms.length === 1) return tableName(node.froms[0]);
  return null;
}

function columnName(node: OperationNode): string | null {
  if (ColumnNode.is(node)) return node.column.name;
  if (ReferenceNode.is(node) && ColumnNode.is(node.column)) return node.column.column.name;
  return null;
}

function literal(node: OperationNode): { value: unknown } | null {
  return ValueNode.is(node) ? { value: node.value } : null;
}

/** The values of `key = v` or `key in (…)` in a where clause (also inside an AND); null when absent. */
function keysIn(node: OperationNode | undefined, key: string): unknown[] | null {
  if (!node) return null;
  if (WhereNode.is(node)) return keysIn(node.where, key);
  if (ParensNode.is(node)) return keysIn(node.node, key);
  if (AndNode.is(node)) return keysIn(node.left, key) ?? keysIn(node.right, key);
  if (!BinaryOperationNode.is(node) || columnName(node.leftOperand) !== key || !OperatorNode.is(node.operator)) return null;
  const right = node.rightOperand;
  if (node.operator.operator === '=') return literal(right) ? [literal(right)!.value] : null;
  if (node.operator.operator !== 'in') return null;
  if (PrimitiveValueListNode.is(right)) return [...right.values];
  if (ValueListNode.is(right)) {
    const values = right.values.map(literal);
    return values.every(Boolean) ? values.map((v) => v!.value) : null;
  }
  return null;
}

function insertedRows(node: InsertQueryNode): Record<string, unknown>[] {
  const columns = (node.columns ?? []).map((column) => column.column.name);
  if (!node.values || !ValuesNode.is(node.values)) return [];
  return node.values.values.map((row) => {
    const cells = PrimitiveValueListNode.is(row) ? row.values : row.values.map((cell) => literal(cell)?.value);
    return Object.fromEntries(columns.map((column, i) => [column, cells[i]]));
  });
}

function updatedValues(node: UpdateQueryNode): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const update of node.updates ?? []) {
    const column = columnName(update.column);
    const value = literal(update.value);
    if (column && value) values[column] = value.value;
  }
  return values;
}

function changeOf(node: RootOperationNode): Change | null {
  if (InsertQueryNode.is(node)) {
    const table = tableName(node.into);
    if (!table || !AUDITED[table]) return null;
    const rows = insertedRows(node);
    const key = AUDITED[table]!.key;
    return { table, event: 'added', keys: rows.every((row) => row[key] !== undefined) ? rows.map((row) => row[key]) : null, values: rows };
  }
  if (UpdateQueryNode.is(node)) {
    const table = tableName(node.table);
    if (!table || !AUDITED[table]) return null;
    return { table, event: 'edited', keys: keysIn(node.where, AUDITED[table]!.key), values: [updatedValues(node)] };
  }
  if (DeleteQueryNode.is(node)) {
    const table = tableName(node.from);
    if (!table || !AUDITED[table]) return null;
    return { table, event: 'deleted', keys: keysIn(node.where, AUDITED[table]!.key), values: [] };
  }
  return null;
}

const affected = (result: QueryResult<UnknownRow>) => Number(result.numAffectedRows ?? result.numChangedRows ?? 0);

/** What one write attempt did to audited tables, and what it read of them (the names of records it deletes). */
export class ActionCollector implements KyselyPlugin {
  readonly #pending = new WeakMap<QueryId, Change | { read: string }>();
  readonly #changes: (Change & { count: number })[] = [];
  /** `table:id` → the row as last read or written in this attempt. */
  readonly #seen = new Map<string, Record<string, unknown>>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const change = changeOf(node);
    if (change) this.#pending.set(queryId, change);
    else if (SelectQueryNode.is(node)) {
      const table = tableName(node.from);
      if (table && AUDITED[table]) this.#pending.set(queryId, { read: table });
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const pending = this.#pending.get(queryId);
    if (!pending) return result;
    if ('read' in pending) {
      for (const row of result.rows) this.#remember(pending.read, row);
    } else {
      const count = pending.event === 'added' ? pending.values.length : affected(result);
      if (count > 0) this.#changes.push({ ...pending, count });
      if (pending.event === 'added') for (const row of pending.values) this.#remember(pending.table, row);
    }
    return result;
  }

  #remember(table: string, row: Record<string, unknown>): void {
    const audited = AUDITED[table]!;
    const key = row[audited.key];
    if (key === undefined || key === null) return;
    const id = `${table}:${String(key)}`;
    const known = { ...this.#seen.get(id) };
    for (const column of columnsOf(audited)) if (row[column] !== undefined) known[column] = row[column];
    this.#seen.set(id, known);
  }

  /**
   * Inserts the attempt's actions through `trx` (a handle without this plugin). Names and extra context
   * come from the statements themselves, then from the rows as they are now (added, edited), or as the
   * attempt last read them (deleted).
   */
  async write(trx: Db, actor: ActionActor | null, at: Date): Promise<void> {
    if (!actor || this.#changes.length === 0) return;
    const actions = new Map<string, { table: string; event: Event; key: unknown; count: number }>();
    for (const change of this.#changes) {
      // An update or delete of several records at once is a bulk action, as Ghost records `bulkEdit`/`bulkDestroy`.
      if (!change.keys || (change.event !== 'added' && change.keys.length > 1)) {
        actions.set(`${change.table}:bulk:${actions.size}`, { table: change.table, event: change.event, key: null, count: change.count });
        continue;
      }
      for (const key of change.keys) {
        const id = `${change.table}:${String(key)}`;
        const earlier = actions.get(id);
        // One action per record and write: an added record stays added; a deleted one ends deleted.
        if (earlier?.event === 'added' && change.event === 'edited') continue;
        actions.set(id, { table: change.table, event: change.event, key, count: 1 });
      }
    }
    await this.#loadCurrent(
      trx,
      [...actions.values()].filter((action) => action.event !== 'deleted' && action.key !== null),
    );
    const rows = [...actions.values()].map(({ table, event, key, count }) => {
      const audited = AUDITED[table]!;
      const seen = key === null ? undefined : this.#seen.get(`${table}:${String(key)}`);
      const context: Record<string, unknown> = key === null ? { count } : {};
      for (const column of audited.extra ?? []) if (seen?.[column] !== undefined) context[column] = seen[column];
      const name = audited.names.map((column) => seen?.[column]).find((value) => typeof value === 'string' && value !== '');
      if (name !== undefined) context.primary_name = name;
      return {
        id: objectId(),
        resource_id: key === null ? null : String(seen?.id ?? key),
        resource_type: audited.type,
        actor_id: actor.id,
        actor_type: actor.type,
        event,
        context: JSON.stringify(context),
        created_at: at,
      };
    });
    await trx.insertInto('actions').values(rows).execute();
  }

  /** The current name, id and extra columns of added and edited records, one query per table. */
  async #loadCurrent(trx: ReadDb, actions: { table: string; key: unknown }[]): Promise<void> {
    const byTable = new Map<string, unknown[]>();
    for (const { table, key } of actions) byTable.set(table, [...(byTable.get(table) ?? []), key]);
    for (const [table, keys] of byTable) {
      const audited = AUDITED[table]!;
      // The table is one of AUDITED's and the columns are its own: no name comes from a request.
      const columns = sql.join(columnsOf(audited).map((column) => sql.ref(column)));
      const { rows } = await sql<
        Record<string, unknown>
      >`select ${columns} from ${sql.table(table)} where ${sql.ref(audited.key)} in (${sql.join(keys)})`.execute(trx);
      for (const row of rows) this.#remember(table, row);
    }
  }
}
