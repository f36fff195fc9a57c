import { errors } from '../../errors.js';
import type { BodySpec } from '../../http/parse-body.js';

/** One entry of a `PUT /settings/` body, as sent: any key, any value. */
export interface SettingInput {
  key: unknown;
  value: unknown;
}

/**
 * `{"settings": [{key, value}, …]}`. Ghost checks only that the root holds a non-empty first entry (400
 * `No root key ('settings') provided.`); entries that are not objects are skipped, as Ghost skips entries
 * whose key it does not know.
 */
export const SETTINGS_EDIT: BodySpec<SettingInput[]> = {
  read(body) {
    const root = (body as Record<string, unknown> | null | undefined)?.settings;
    const first: unknown = Array.isArray(root) ? root[0] : undefined;
    if (!first || typeof first !== 'object' || Object.keys(first).length === 0) {
      throw errors.badRequest("No root key ('settings') provided.");
    }
    return (root as unknown[])
      .filter((entry): entry is Record<string, unknown> => Boolean(entry) && typeof entry === 'object' && !Array.isArray(entry))
      .map((entry) => ({ key: entry.key, value: entry.value }));
  },
};
