import type { Ctx } from '../ctx.js';
import { customTemplateValues } from '../resources/themes/custom-theme-settings.service.js';
import type { CompiledTheme } from './engine.js';

/**
 * `@custom`: the active theme's custom setting values as the Design screen saved them (defaults until then),
 * kept per loaded theme and content version. Saving custom settings changes the site (`site.changed`), which
 * moves the content version every instance reads, so each instance reads the new values on its next page.
 */
const kept = new WeakMap<CompiledTheme, { version: number; values: Promise<Record<string, unknown>> }>();

export function customValues(ctx: Ctx, theme: CompiledTheme, version?: number): Promise<Record<string, unknown>> {
  if (version === undefined) return customTemplateValues(ctx, theme.name, theme.config.custom);
  const entry = kept.get(theme);
  if (entry?.version === version) return entry.values;
  const values = customTemplateValues(ctx, theme.name, theme.config.custom);
  kept.set(theme, { version, values });
  // A failed read is not kept: the next page tries again.
  values.catch(() => kept.get(theme)?.values === values && kept.delete(theme));
  return values;
}
