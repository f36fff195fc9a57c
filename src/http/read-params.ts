import { errors } from '../errors.js';
import { queryList } from '../browse/query-list.js';

/** `slug` URL parameters: Ghost's `isSlug` (lower-case only), with its `undefined.slug` context. */
export function assertSlugParam(slug: string): void {
  if (!/^[a-z0-9\-_]+$/.test(slug)) throw errors.validation({ message: 'Validation (isSlug) failed for slug', context: 'undefined.slug' });
}

/**
 * `fields` on a read endpoint (Ghost's read serialisers): the requested fields, with the key the record
 * was looked up by (`id`, `slug` or `email`) first. Relations and formats asked for stay.
 */
export function pickRead<T extends Record<string, unknown>>(
  objects: T[], query: Record<string, unknown>, key: 'id' | 'slug' | 'email', include: readonly string[], formats: readonly string[] | null = null,
): Record<string, unknown>[] {
  const fields = queryList(query.fields);
  if (!fields || fields.length === 0) return objects;
  const keep = new Set([key, ...fields, ...include.filter((name) => !name.startsWith('count.')).map((name) => name.split('.')[0]!), ...(formats ?? [])]);
  return objects.map((object) => {
    const out: Record<string, unknown> = { [key]: object[key] };
    for (const [name, value] of Object.entries(object)) if (keep.has(name) && name !== key) out[name] = value;
    return out;
  });
}
