import { errors } from '../../errors.js';
import { FORMATS, type Format } from './posts.schemas.js';

/** `slug` URL parameters: Ghost's `isSlug` (lower-case only). */
export function assertSlugParam(slug: string): void {
  if (!/^[a-z0-9\-_]+$/.test(slug)) throw errors.validation({ message: 'Validation (isSlug) failed for slug', context: 'undefined.slug' });
}

/** `uuid` URL parameters. */
export function assertUuidParam(uuid: string): void {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) throw errors.validation({ message: 'Validation (isUUID) failed for uuid', context: 'undefined.uuid' });
}

/** Comma list as the api-framework reads it: trimmed, lower-cased; null when absent. */
function list(raw: unknown): string[] | null {
  if (typeof raw !== 'string') return null;
  return raw.trim().toLowerCase().split(',').map((value) => value.trim()).filter(Boolean);
}

/** `formats=…` on browse/read: unknown values are a 422 (`formats=` alone is accepted). */
export function parseFormats(raw: unknown, options: { validate: boolean }): Format[] | null {
  const values = list(raw);
  if (values === null) return null;
  if (options.validate && values.some((value) => !(FORMATS as readonly string[]).includes(value))) {
    throw errors.validation('Validation (AllowedValues) failed for formats');
  }
  return values.filter((value): value is Format => (FORMATS as readonly string[]).includes(value));
}

/** `include=…`: unknown values are dropped silently; null when the request names none. */
export function parseIncludes(raw: unknown, allowed: readonly string[]): Set<string> | null {
  const values = list(raw);
  if (values === null) return null;
  return new Set(values.filter((value) => allowed.includes(value)));
}

/** `source=html` is the only source Ghost converts from. */
export function parseSource(raw: unknown): 'html' | null {
  if (raw === undefined || raw === '') return null;
  if (raw !== 'html') throw errors.validation('Validation (AllowedValues) failed for source');
  return 'html';
}

/** Boolean query options (`force_rerender`, `save_revision`, `convert_to_lexical`). */
export const flag = (raw: unknown) => raw === 'true' || raw === true;

/**
 * `fields` on a read endpoint (Ghost's read serialisers): the requested fields, with the key the record
 * was looked up by (`id` or `slug`) first. Relations and formats asked for stay.
 */
export function pickRead<T extends Record<string, unknown>>(
  objects: T[], query: Record<string, unknown>, key: 'id' | 'slug', include: readonly string[], formats: readonly string[] | null = null,
): Record<string, unknown>[] {
  const fields = list(query.fields);
  if (!fields || fields.length === 0) return objects;
  const keep = new Set([key, ...fields, ...include.filter((name) => !name.startsWith('count.')).map((name) => name.split('.')[0]!), ...(formats ?? [])]);
  return objects.map((object) => {
    const out: Record<string, unknown> = { [key]: object[key] };
    for (const [name, value] of Object.entries(object)) if (keep.has(name) && name !== key) out[name] = value;
    return out;
  });
}
