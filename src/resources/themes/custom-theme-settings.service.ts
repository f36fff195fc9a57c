import { createRequire } from 'node:module';
import type { Ctx } from '../../ctx.js';
import type { CustomThemeSettingRow } from '../../db/schema-theme-settings.js';
import { errors } from '../../errors.js';
import { customSettingsOfTheme, setCustomSettingValue } from './custom-theme-settings.queries.js';
import {
  customSettingDefinitions,
  inSync,
  readValue,
  storedValue,
  syncCustomThemeSettings,
  type CustomSettingDefinition,
} from './custom-theme-settings.sync.js';
import { activeThemeName, customSettingsOf, packageOfTheme } from './themes.service.js';

const require = createRequire(import.meta.url);
type Nql = (query: string) => { queryJSON(object: Record<string, unknown>): boolean };
let nqlLoaded: Nql | undefined;
/**
 * Ghost's NQL over JSON (`@tryghost/nql`), for a setting's `visibility` (`header_style:[Landing, Search]`). Loaded on
 * first use: it brings lodash, mingo and mongo-knex (~3 MB of heap) that a server answering only the APIs never needs.
 */
const nql: Nql = (query) => (nqlLoaded ??= require('@tryghost/nql') as Nql)(query);

/** One setting as Ghost's API shows it: the theme's definition, then the stored `id` and `value`, then `key`. */
export type CustomThemeSetting = CustomSettingDefinition & { id: string; value: unknown; key: string };

export interface CustomSettingInput {
  key: unknown;
  value: unknown;
}

/** The active theme's definitions and its stored rows, synced first when they disagree (a theme active before its settings were stored). */
async function activeSettings(ctx: Ctx): Promise<{ theme: string; definitions: Map<string, CustomSettingDefinition>; rows: CustomThemeSettingRow[] }> {
  const theme = await activeThemeName(ctx);
  const custom = customSettingsOf(await packageOfTheme(ctx, theme));
  const definitions = customSettingDefinitions(custom);
  let rows = await customSettingsOfTheme(ctx.db, theme);
  if (!inSync(rows, definitions)) rows = await ctx.write((w) => syncCustomThemeSettings(w, theme, custom));
  return { theme, definitions, rows };
}

function present(ctx: Ctx, definitions: ReadonlyMap<string, CustomSettingDefinition>, rows: readonly CustomThemeSettingRow[]): CustomThemeSetting[] {
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return [...definitions].flatMap(([key, definition]) => {
    const row = byKey.get(key);
    return row ? [{ ...definition, id: row.id, value: readValue(row, ctx.site.url), key }] : [];
  });
}

/** `GET /custom_theme_settings/`: the active theme's settings with their values. */
export async function browseCustomThemeSettings(ctx: Ctx): Promise<CustomThemeSetting[]> {
  const { definitions, rows } = await activeSettings(ctx);
  return present(ctx, definitions, rows);
}

const UNALLOWED = (key: string, allowed: string) => `Unallowed value for '${key}'. Allowed values: ${allowed}.`;

/**
 * `PUT /custom_theme_settings/`: Ghost's checks, in its order — any unknown key first, then each value
 * against its type (a select's options, a boolean, a `#rrggbb` colour) — and nothing is saved unless all pass.
 */
export async function editCustomThemeSettings(ctx: Ctx, input: readonly CustomSettingInput[]): Promise<CustomThemeSetting[]> {
  const { definitions, rows } = await activeSettings(ctx);
  const unknown = input.find((setting) => typeof setting.key !== 'string' || !definitions.has(setting.key));
  if (unknown) throw errors.validation(`Unknown setting: ${String(unknown.key)}.`);
  for (const { key, value } of input as { key: string; value: unknown }[]) {
    const definition = definitions.get(key)!;
    if (definition.type === 'select') {
      const options = Array.isArray(definition.options) ? definition.options : [];
      if (!options.includes(value)) throw errors.validation(UNALLOWED(key, options.join(', ')));
    } else if (definition.type === 'boolean') {
      if (value !== true && value !== false) throw errors.validation(UNALLOWED(key, 'true, false'));
    } else if (definition.type === 'color') {
      if (typeof value !== 'string' || !/^#[0-9a-f]{6}$/i.test(value)) {
        throw errors.validation(`Invalid value for '${key}'. The value must follow this format: #1234AF.`);
      }
    }
  }
  const byKey = new Map(rows.map((row) => [row.key, row]));
  await ctx.write(async (w) => {
    for (const { key, value } of input as { key: string; value: unknown }[]) {
      const row = byKey.get(key)!;
      const stored = storedValue(row.type, value, ctx.site.url);
      if (stored !== row.value) await setCustomSettingValue(w.db, row.id, stored);
      byKey.set(key, { ...row, value: stored });
    }
  });
  return present(ctx, definitions, [...byKey.values()]);
}

/**
 * `@custom` for templates: each setting's value (its default while none is stored), and null for a setting
 * whose `visibility` does not hold, as Ghost hides it from the theme. Read-only: the site never writes.
 */
export async function customTemplateValues(ctx: Ctx, theme: string, custom: Record<string, unknown>): Promise<Record<string, unknown>> {
  const definitions = customSettingDefinitions(custom);
  if (definitions.size === 0) return {};
  const rows = new Map((await customSettingsOfTheme(ctx.db, theme)).map((row) => [row.key, row]));
  const values: Record<string, unknown> = {};
  for (const [key, definition] of definitions) {
    const row = rows.get(key);
    const usable = row && row.type === definition.type && !(Array.isArray(definition.options) && !definition.options.includes(readValue(row, ctx.site.url)));
    values[key] = usable ? readValue(row, ctx.site.url) : (definition.default ?? null);
  }
  const hidden = (visibility: unknown) => {
    if (typeof visibility !== 'string' || !visibility) return false;
    try {
      return nql(visibility).queryJSON(values) === false;
    } catch {
      return false;
    }
  };
  return Object.fromEntries([...definitions].map(([key, definition]) => [key, hidden(definition.visibility) ? null : values[key]]));
}
