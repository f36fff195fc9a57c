import { createQueryId, type Compilable, type CompiledQuery } from 'kysely';
import type { ReadDb } from './read-db.js';

/**
 * Read queries built and compiled once per shape, their values bound per call. Building a query with Kysely
 * and compiling it to SQL cost as much as running it for the small reads of the Content API (a tenth of a
 * cold read's time); the SQL text of a given shape never changes, only its parameters do.
 *
 * The builder gets `$`: `$.name` stands for the value `name` of each call. An array value stands for that
 * many parameters (an `in` list), so each list length is a shape of its own. A value Kysely would write into
 * the SQL text instead of binding it cannot stand in a slot: compiling such a query fails at once.
 */
class Slot {
  constructor(
    readonly name: string,
    readonly index: number | null,
  ) {}
}

type Values = Record<string, unknown>;
type Slots<V extends Values> = { readonly [K in keyof V]: V[K] };
type Shape = { compiled: CompiledQuery; slots: (Slot | null)[] };

/** Shapes kept per query: list lengths beyond this many are compiled per call. */
const SHAPES_PER_QUERY = 64;

type Query<Row> = Compilable<Row> & { execute(): Promise<Row[]> };

export function preparedQuery<V extends Values, Row>(build: (db: ReadDb, $: Slots<V>) => Query<Row>) {
  // Compiled SQL depends on the dialect only: keyed by its adapter, which a transaction shares with its pool.
  const byAdapter = new WeakMap<object, Map<string, Shape>>();
  return async function execute(db: ReadDb, values: V): Promise<Row[]> {
    const executor = db.getExecutor();
    // Plugins see each query's tree (a write's audit trail, the tests' query counter): built per call there.
    if (executor.plugins.length > 0) return build(db, values).execute();
    let shapes = byAdapter.get(executor.adapter);
    if (!shapes) byAdapter.set(executor.adapter, (shapes = new Map()));
    const key = shapeKey(values);
    let shape = shapes.get(key);
    if (!shape) {
      shape = compileShape(db, build, values);
      if (shapes.size < SHAPES_PER_QUERY) shapes.set(key, shape);
    }
    const parameters = shape.compiled.parameters.map((value, i) => {
      const slot = shape.slots[i];
      if (!slot) return value;
      const given = values[slot.name];
      return slot.index === null ? given : (given as unknown[])[slot.index];
    });
    const result = await executor.executeQuery<Row>({ ...shape.compiled, parameters, queryId: createQueryId() } as CompiledQuery<Row>);
    return result.rows;
  };
}

function shapeKey(values: Values): string {
  let key = '';
  for (const name in values) {
    const value = values[name];
    if (Array.isArray(value)) key += `${name}:${value.length};`;
  }
  return key;
}

function compileShape<V extends Values>(db: ReadDb, build: (db: ReadDb, $: Slots<V>) => Compilable<unknown>, values: V): Shape {
  const used: Slot[] = [];
  const $ = {} as Record<string, unknown>;
  for (const name in values) {
    const value = values[name];
    const slots = Array.isArray(value) ? value.map((_, i) => new Slot(name, i)) : new Slot(name, null);
    Object.defineProperty($, name, {
      get: () => {
        used.push(...(Array.isArray(slots) ? slots : [slots]));
        return slots;
      },
    });
  }
  const compiled = build(db, $ as Slots<V>).compile();
  const slots = compiled.parameters.map((value) => (value instanceof Slot ? value : null));
  const bound = new Set(slots);
  const inlined = used.find((made) => !bound.has(made));
  if (inlined) throw new Error(`prepared query: value ${inlined.name} was not bound as a parameter (${compiled.sql})`);
  return { compiled, slots };
}
