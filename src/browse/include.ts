import { queryList } from './query-list.js';

/**
 * `include=a,b` as Ghost's api-framework reads it: a comma list (repeated parameters joined), trimmed and
 * lower-cased, in request order without repeats; values the endpoint does not accept are dropped silently.
 * `defaults` stand in only when the parameter is absent (`include=` asks for nothing).
 */
export function parseInclude(raw: unknown, allowed: readonly string[], defaults: readonly string[] = []): string[] {
  if (raw === undefined) return [...defaults];
  const values = queryList(raw) ?? [];
  return values.filter((value, index) => allowed.includes(value) && values.indexOf(value) === index);
}
