import type { Engine } from '../db/engine.js';
import { FilterCompiler, type Cond } from './compile.js';
import { expandShorthands, mapStatements, mergeFilters, rejectKeys, type Expansion } from './merge.js';
import { parseNql, type NqlNode } from './nql.js';
import { renderCondition, type Where } from './render.js';
import type { FilterSpec } from './spec.js';

/**
 * Where a resource's filter comes from besides the client (Ghost's bookshelf-filter + input serializers):
 * - `extra`: statements ANDed to the client's filter (posts: `type:post`, Admin's status list);
 * - `enforced`: wins over the client — the client's statements on the same keys are dropped (Content
 *   API `status:published`), so a client filter can narrow but never widen it;
 * - `defaults`: apply only to keys the client's filter does not mention.
 */
export interface FilterRules {
  extra?: string | null;
  enforced?: string | null;
  defaults?: string | null;
  /** Parse the client's filter inside parentheses, as Ghost does on posts and pages. */
  wrap?: boolean;
  /** Client statements dropped silently (Content API: private author fields). */
  reject?: (key: string) => boolean;
  /**
   * Rewrites each client statement `(value, key)` into another, or drops it (`undefined`), before the
   * resource's rules are merged in: keys Ghost maps onto a column with other values (offers' `status`).
   */
  rewrite?: (value: unknown, key: string) => NqlNode | undefined;
}

const parsedExpansions = new WeakMap<FilterSpec, Expansion[]>();
const parsedRules = new Map<string, NqlNode>();

function parsedRule(text: string): NqlNode {
  let node = parsedRules.get(text);
  if (!node) {
    node = parseNql(text);
    parsedRules.set(text, node);
  }
  // Relative dates are resolved at parse time, so rules holding `now` are parsed per request. Nodes are
  // never mutated (merging and expanding build new ones), so the cached tree can be shared.
  return /\bnow[+-]/.test(text) ? parseNql(text) : node;
}

function expansionsOf(spec: FilterSpec): Expansion[] {
  let expansions = parsedExpansions.get(spec);
  if (!expansions) {
    expansions = (spec.expansions ?? []).map(({ key, replacement, expansion }) => ({
      key,
      replacement,
      ...(expansion ? { expansion: parseNql(expansion) } : {}),
    }));
    parsedExpansions.set(spec, expansions);
  }
  return expansions;
}

/**
 * Condition trees already built, per resource, by client filter and rules: the same filter arrives again and
 * again (a theme's lists, an app's queries), and parsing and compiling it was a tenth of a small read's time.
 * Trees are never mutated, so one is shared. A filter or rule holding a relative date (`now-7d`) is built
 * afresh each time: the date moves. Bounded, oldest first out.
 */
const builtConditions = new WeakMap<FilterSpec, Map<string, Cond | null>>();
const BUILT_CONDITIONS_PER_SPEC = 500;
const ruleFunctionIds = new WeakMap<object, number>();
let nextRuleFunctionId = 1;

function ruleFunctionId(fn: object | undefined): number {
  if (!fn) return 0;
  let id = ruleFunctionIds.get(fn);
  if (id === undefined) {
    id = nextRuleFunctionId++;
    ruleFunctionIds.set(fn, id);
  }
  return id;
}

const RELATIVE_DATE = /now/i;

/** The client's `filter` merged with the resource's rules, as a condition tree (null: no condition). */
export function filterCondition(spec: FilterSpec, clientFilter: string | undefined, rules: FilterRules = {}): Cond | null {
  const texts = [clientFilter ?? '', rules.extra ?? '', rules.enforced ?? '', rules.defaults ?? ''];
  if (texts.some((text) => RELATIVE_DATE.test(text))) return buildCondition(spec, clientFilter, rules);
  const key = `${texts.join('\u0000')}\u0000${rules.wrap ? 1 : 0}\u0000${ruleFunctionId(rules.reject)}\u0000${ruleFunctionId(rules.rewrite)}`;
  let built = builtConditions.get(spec);
  if (!built) builtConditions.set(spec, (built = new Map()));
  if (built.has(key)) return built.get(key)!;
  const cond = buildCondition(spec, clientFilter, rules);
  if (built.size >= BUILT_CONDITIONS_PER_SPEC) built.delete(built.keys().next().value!);
  built.set(key, cond);
  return cond;
}

function buildCondition(spec: FilterSpec, clientFilter: string | undefined, rules: FilterRules): Cond | null {
  let custom: NqlNode | null = clientFilter ? parseNql(clientFilter, { wrap: rules.wrap }) : null;
  if (custom && rules.reject) custom = rejectKeys(custom, rules.reject);
  if (custom && rules.rewrite) custom = mapStatements(custom, rules.rewrite);
  if (rules.extra) {
    const extra = parsedRule(rules.extra);
    custom = custom && Object.keys(custom).length ? { $and: [custom, extra] } : extra;
  }
  const merged = mergeFilters(rules.enforced ? parsedRule(rules.enforced) : null, custom, rules.defaults ? parsedRule(rules.defaults) : null);
  const expanded = expandShorthands(merged, expansionsOf(spec));
  return new FilterCompiler(spec).compile(expanded);
}

/** Same as filterCondition, ready for `query.where(…)`; null when there is nothing to apply. */
export function filterWhere(spec: FilterSpec, engine: Engine, clientFilter: string | undefined, rules: FilterRules = {}): Where | null {
  const cond = filterCondition(spec, clientFilter, rules);
  return cond ? renderCondition(cond, spec, engine) : null;
}
