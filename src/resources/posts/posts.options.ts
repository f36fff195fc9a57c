import { errors } from '../../errors.js';
import { queryList } from '../../browse/query-list.js';
import { FORMATS, type Format } from './posts.schemas.js';

/**
 * The post formats among requested ones. Browse and read have rejected unknown values already (a 422);
 * after a write, `formats=…` is read as it comes and unknown values are ignored.
 */
export function postFormats(requested: readonly string[] | null): Format[] {
  return (requested ?? []).filter((value): value is Format => (FORMATS as readonly string[]).includes(value));
}

/** `formats=…` after a write: no 422 at that point, unknown values are ignored. */
export const writeFormats = (raw: unknown) => postFormats(queryList(raw));

/** `source=html` is the only source Ghost converts from. */
export function parseSource(raw: unknown): 'html' | null {
  if (raw === undefined || raw === '') return null;
  if (raw !== 'html') throw errors.validation('Validation (AllowedValues) failed for source');
  return 'html';
}

/** Boolean query options (`force_rerender`, `save_revision`, `convert_to_lexical`). */
export const flag = (raw: unknown) => raw === 'true' || raw === true;
