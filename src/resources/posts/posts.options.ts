import { errors } from '../../errors.js';
import { queryList as list } from '../../browse/query-list.js';
import { FORMATS, type Format } from './posts.schemas.js';

/** `formats=…` on browse/read: unknown values are a 422 (`formats=` alone is accepted). */
export function parseFormats(raw: unknown, options: { validate: boolean }): Format[] | null {
  const values = list(raw);
  if (values === null) return null;
  if (options.validate && values.some((value) => !(FORMATS as readonly string[]).includes(value))) {
    throw errors.validation('Validation (AllowedValues) failed for formats');
  }
  return values.filter((value): value is Format => (FORMATS as readonly string[]).includes(value));
}

/** `source=html` is the only source Ghost converts from. */
export function parseSource(raw: unknown): 'html' | null {
  if (raw === undefined || raw === '') return null;
  if (raw !== 'html') throw errors.validation('Validation (AllowedValues) failed for source');
  return 'html';
}

/** Boolean query options (`force_rerender`, `save_revision`, `convert_to_lexical`). */
export const flag = (raw: unknown) => raw === 'true' || raw === true;

/** `include=a,b` in request order, unknown values dropped; Ghost's defaults when the request names none. */
export function includesOf(raw: unknown, allowed: readonly string[], defaults: readonly string[]): string[] {
  if (typeof raw !== 'string') return [...defaults];
  const values = raw.trim().toLowerCase().split(',').map((value) => value.trim());
  return [...new Set(values.filter((value) => allowed.includes(value)))];
}
