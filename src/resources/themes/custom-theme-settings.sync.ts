import type { WriteCtx } from '../../ctx.js';
import type { CustomThemeSettingRow } from '../../db/schema-theme-settings.js';
import { objectId } from '../../db/ids.js';
import { fromStorageUrl, toStorageUrl } from '../../content/ghost-url.js';
import { customSettingsOfTheme, deleteCustomSettings, insertCustomSetting, setCustomSettingValue } from './custom-theme-settings.queries.js';

/** The types of custom setting Ghost knows (gscan refuses others; Ghost's model would not store them). */
export const CUSTOM_SETTING_TYPES = ['select', 'boolean', 'color', 'image', 'text'] as const;
export type CustomSettingType = (typeof CUSTOM_SETTING_TYPES)[number];

/** One setting as the theme's package.json declares it (`type`, `options`, `default`, `group`, `description`, `visibility`…). */
export interface CustomSettingDefinition extends Record<string, unknown> {
  type: CustomSettingType;
  options?: unknown[];
  default?: unknown;
  visibility?: string;
}

/** The definitions of `config.custom` that Ghost can keep: objects of a known type, in the package's order. */
export function customSettingDefinitions(custom: Record<string, unknown>): Map<string, CustomSettingDefinition> {
  const definitions = new Map<string, CustomSettingDefinition>();
  for (const [key, value] of Object.entries(custom)) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    const type = (value as { type?: unknown }).type;
    if (CUSTOM_SETTING_TYPES.includes(type as CustomSettingType)) definitions.set(key, value as CustomSettingDefinition);
  }
  return definitions;
}

/** A value as Ghost's model stores it: booleans as `"true"`/`"false"`, site images in their `__GHOST_URL__` form. */
export function storedValue(type: string, value: unknown, siteUrl: string): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return String(value === true || value === 'true' || value === '1');
  if (type === 'image') return toStorageUrl(String(value), siteUrl) ?? null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A stored value as Ghost's model reads it back. */
export function readValue(row: Pick<CustomThemeSettingRow, 'type' | 'value'>, siteUrl: string): unknown {
  if (row.type === 'boolean' && row.value !== null && ['true', 'false', '0', '1'].includes(row.value)) return row.value === 'true' || row.value === '1';
  if (row.type === 'image' && row.value) return fromStorageUrl(row.value, siteUrl);
  return row.value;
}

/** Whether the stored rows already hold exactly one row of the right type for every definition. */
export function inSync(rows: readonly CustomThemeSettingRow[], definitions: ReadonlyMap<string, CustomSettingDefinition>): boolean {
  if (rows.length !== definitions.size) return false;
  return rows.every((row) => definitions.get(row.key)?.type === row.type);
}

/**
 * Brings a theme's stored settings in line with its package.json, as Ghost does on activation: a setting
 * gone from the theme, or whose type changed, is dropped; a select whose value is no longer an option is
 * reset to its default; a new setting is added with its default. Values of unchanged settings are kept,
 * which is how they survive a re-upload of the theme.
 */
export async function syncCustomThemeSettings(w: WriteCtx, theme: string, custom: Record<string, unknown>): Promise<CustomThemeSettingRow[]> {
  const definitions = customSettingDefinitions(custom);
  const rows = await customSettingsOfTheme(w.db, theme);
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const row of rows) {
    const definition = definitions.get(row.key);
    if (!definition || definition.type !== row.type || kept.includes(row.key)) {
      dropped.push(row.id);
      continue;
    }
    kept.push(row.key);
    if (Array.isArray(definition.options) && !definition.options.includes(readValue(row, w.site.url))) {
      await setCustomSettingValue(w.db, row.id, storedValue(definition.type, definition.default, w.site.url));
    }
  }
  await deleteCustomSettings(w.db, dropped);
  for (const [key, definition] of definitions) {
    if (kept.includes(key)) continue;
    await insertCustomSetting(w.db, { id: objectId(), theme, key, type: definition.type, value: storedValue(definition.type, definition.default, w.site.url) });
  }
  return customSettingsOfTheme(w.db, theme);
}
