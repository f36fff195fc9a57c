import { errors } from '../../errors.js';
import type { BodySpec } from '../../http/parse-body.js';
import type { CustomSettingInput } from './custom-theme-settings.service.js';

/**
 * `{"custom_theme_settings": [{key, value}, …]}`. As for settings, Ghost's frame checks only that the root's
 * first entry is a non-empty object (400 `No root key ('custom_theme_settings') provided.`); the service
 * checks keys and values.
 */
export const CUSTOM_THEME_SETTINGS_EDIT: BodySpec<CustomSettingInput[]> = {
  read(body) {
    const root = (body as Record<string, unknown> | null | undefined)?.custom_theme_settings;
    const first: unknown = Array.isArray(root) ? root[0] : undefined;
    if (!first || typeof first !== 'object' || Object.keys(first).length === 0) {
      throw errors.badRequest("No root key ('custom_theme_settings') provided.");
    }
    return (root as unknown[]).map((entry) => {
      const item = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
      return { key: item.key, value: item.value };
    });
  },
};
