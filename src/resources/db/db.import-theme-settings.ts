import { objectId } from '../../db/ids.js';
import { findCustomSetting, insertCustomSetting, setCustomSettingValue } from '../themes/custom-theme-settings.queries.js';
import type { ImportRun } from './db.import-run.js';

/**
 * Custom theme settings, as Ghost's importer takes them: a setting of the same theme and key gets the file's
 * value, another is added as it is. Settings of a theme that is not installed wait for it; the active theme's
 * are brought in line with its package.json when next read, as Ghost re-activates it after an import.
 */
export async function importCustomThemeSettings(run: ImportRun): Promise<void> {
  for (const row of run.rows('custom_theme_settings')) {
    const theme = typeof row.theme === 'string' ? row.theme : '';
    const key = typeof row.key === 'string' ? row.key : '';
    if (!theme || !key) {
      run.problem('Value in [custom_theme_settings.theme] and [custom_theme_settings.key] cannot be blank.', 'Custom theme setting', row);
      continue;
    }
    const value = row.value === null || row.value === undefined ? null : typeof row.value === 'object' ? JSON.stringify(row.value) : String(row.value);
    const existing = await findCustomSetting(run.w.db, theme, key);
    if (existing) {
      if (existing.value !== value) await setCustomSettingValue(run.w.db, existing.id, value);
    } else {
      await insertCustomSetting(run.w.db, { id: objectId(), theme, key, type: typeof row.type === 'string' ? row.type : 'text', value });
    }
  }
}
