import { errors } from '../../errors.js';
import type { BodySpec } from '../../http/parse-body.js';

/** One entry of a `PUT /settings/` body, as sent: any key, any value. */
export interface SettingInput {
  key: unknown;
  value: unknown;
}

/** lodash's `isEmpty`, which api-framework's root check applies to the first entry. */
function isEmptyEntry(entry: unknown): boolean {
  if (typeof entry === 'string') return entry.length === 0;
  if (!entry || typeof entry !== 'object') return true;
  return Object.keys(entry).length === 0;
}

/**
 * `{"settings": [{key, value}, …]}`. Ghost checks only that the root's first entry is not empty as lodash
 * sees it (400 `No root key ('settings') provided.`): a non-empty string or array passes. Entries that are
 * not objects are skipped, as Ghost skips entries whose key it does not know.
 */
export const SETTINGS_EDIT: BodySpec<SettingInput[]> = {
  read(body) {
    const root = (body as Record<string, unknown> | null | undefined)?.settings;
    if (!Array.isArray(root) || isEmptyEntry(root[0])) {
      throw errors.badRequest("No root key ('settings') provided.");
    }
    return (root as unknown[])
      .filter((entry): entry is Record<string, unknown> => Boolean(entry) && typeof entry === 'object' && !Array.isArray(entry))
      .map((entry) => ({ key: entry.key, value: entry.value }));
  },
};
