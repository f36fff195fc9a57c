import { queryList } from './query-list.js';

/**
 * `fields` applied to presented objects (the allow-list presenters run first). Two rules, as Ghost's
 * output serialisers have them:
 * - a list (browse): the requested fields, plus relations the request included (Ghost keeps loaded
 *   relations: `fields=title&include=tags` shows tags) and requested formats; counts only when named as a
 *   field. Embedded tags and authors lose `url` unless `fields` names it (Ghost's url helpers skip it there).
 * - a read: the same set, with the key the record was looked up by (`id`, `slug` or `email`) first;
 *   embedded objects stay whole.
 * Without `fields` objects pass unchanged.
 */
export interface Projection {
  /** Requested fields; null when the request names none. */
  fields: readonly string[] | null;
  /** Relations the request named (not an endpoint's defaults). */
  include: readonly string[];
  /** Requested formats; null when absent. */
  formats: readonly string[] | null;
}

/** `fields=a,b` (trimmed, lower-cased); null when absent or empty. */
export function parseFields(raw: unknown): string[] | null {
  const fields = queryList(raw);
  return fields && fields.length ? fields : null;
}

function kept(projection: Projection): Set<string> {
  const relations = projection.include.filter((name) => !name.startsWith('count.')).map((name) => name.split('.')[0]!);
  return new Set([...(projection.fields ?? []), ...relations, ...(projection.formats ?? [])]);
}

export function projectList<T extends Record<string, unknown>>(objects: T[], projection: Projection): Partial<T>[] {
  const { fields } = projection;
  if (!fields) return objects;
  const keep = kept(projection);
  const withoutUrl = (value: unknown): unknown => {
    if (fields.includes('url')) return value;
    if (Array.isArray(value)) return value.map(withoutUrl);
    if (value && typeof value === 'object' && 'url' in value) {
      const { url: _url, ...rest } = value as Record<string, unknown>;
      return rest;
    }
    return value;
  };
  return objects.map(
    (object) =>
      Object.fromEntries(
        Object.entries(object)
          .filter(([key]) => keep.has(key))
          .map(([key, value]) => [key, fields.includes(key) ? value : withoutUrl(value)]),
      ) as Partial<T>,
  );
}

export function projectRead<T extends Record<string, unknown>>(objects: T[], projection: Projection, key: 'id' | 'slug' | 'email'): Record<string, unknown>[] {
  if (!projection.fields) return objects;
  const keep = kept(projection);
  return objects.map((object) => {
    const out: Record<string, unknown> = { [key]: object[key] };
    for (const [name, value] of Object.entries(object)) if (keep.has(name) && name !== key) out[name] = value;
    return out;
  });
}
