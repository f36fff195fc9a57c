import type { NqlNode } from './nql.js';

/**
 * Ghost's filter merging (`@tryghost/mongo-utils`): statements are visited with `fn(value, key)`; what `fn`
 * returns replaces the statement, `undefined` removes it, and groups left empty disappear with it.
 */
export function mapStatements(node: NqlNode, fn: (value: unknown, key: string) => NqlNode | undefined): NqlNode {
  const out: NqlNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$and' || key === '$or') {
      const children = (value as NqlNode[]).map((child) => mapStatements(child, fn)).filter((child) => Object.keys(child).length > 0);
      if (children.length > 0) out[key] = children;
    } else if (key === 'yg') {
      const group = mapStatements(value as NqlNode, fn);
      if (Object.keys(group).length > 0) out.yg = group;
    } else {
      Object.assign(out, fn(value, key));
    }
  }
  return out;
}

/** Does `node` contain a statement on `key` anywhere? */
export function mentionsKey(node: NqlNode, key: string): boolean {
  return Object.entries(node).some(([k, value]) => {
    if (k === '$and' || k === '$or') return (value as NqlNode[]).some((child) => mentionsKey(child, key));
    if (k === key) return true;
    // Ghost also looks inside comparison objects, which never hold statement keys; `yg` groups do.
    return k === 'yg' && mentionsKey(value as NqlNode, key);
  });
}

const isEmpty = (node: NqlNode | null | undefined): node is null | undefined => !node || Object.keys(node).length === 0;

/**
 * `mergeFilters(enforced, custom, defaults)`: each filter loses the statements whose key an earlier
 * (higher-priority) one already mentions, then they are ANDed. So an enforced `status:published` removes
 * the client's `status:…` clauses, and a default applies only when the client did not mention its key.
 */
export function mergeFilters(...filters: (NqlNode | null | undefined)[]): NqlNode {
  let merged: NqlNode = {};
  for (const filter of filters) {
    if (isEmpty(filter)) continue;
    const current = merged;
    const rest = mapStatements(filter, (value, key) => (mentionsKey(current, key) ? undefined : { [key]: value }));
    if (isEmpty(rest)) continue;
    merged = isEmpty(merged) ? rest : { $and: [merged, rest] };
  }
  return merged;
}

export interface Expansion {
  /** Shorthand key the client writes (`tag`, `primary_author`, `meta_title`…). */
  key: string;
  /** What it stands for (`tags.slug`). */
  replacement: string;
  /** Extra statements ANDed next to it, as a parsed filter (`posts_tags.sort_order:0+tags.visibility:public`). */
  expansion?: NqlNode;
}

/** Rewrites shorthand keys; an expansion with extra statements becomes one AND group with them. */
export function expandShorthands(node: NqlNode, expansions: readonly Expansion[]): NqlNode {
  if (expansions.length === 0) return node;
  return mapStatements(node, (value, key) => {
    const expansion = expansions.find((candidate) => candidate.key === key);
    if (!expansion) return { [key]: value };
    const replaced = { [expansion.replacement]: value };
    if (!expansion.expansion) return replaced;
    const extra = expansion.expansion;
    return { $and: [replaced, ...(Array.isArray(extra.$and) ? (extra.$and as NqlNode[]) : [extra])] };
  });
}

/** Removes statements whose key matches (Content API: private author fields). */
export function rejectKeys(node: NqlNode, reject: (key: string) => boolean): NqlNode {
  return mapStatements(node, (value, key) => (reject(key) ? undefined : { [key]: value }));
}
