/**
 * The Design screen of Ghost's admin app previews settings before they are saved: it posts the page with them
 * in this header, a query string of short names (Ghost's `theme-engine/preview.js`). They are laid over `@site`
 * and `@custom` for that one render, which is never kept.
 */
export const PREVIEW_HEADER = 'x-ghost-preview';

const PREVIEWED: Readonly<Record<string, string>> = {
  c: 'accent_color',
  icon: 'icon',
  logo: 'logo',
  cover: 'cover_image',
  custom: 'custom',
  d: 'description',
  bf: 'body_font',
  hf: 'heading_font',
};

export interface SitePreview {
  /** Laid over `@site`, `_preview` (the header itself) included: `{{ghost_head}}` looks for it. */
  readonly site: Readonly<Record<string, unknown>>;
  /** Laid over `@custom`, for the theme's own settings only. */
  readonly custom: Readonly<Record<string, unknown>>;
}

/** The preview a request asks for, or null. An empty value clears the setting (Ghost's `null`). */
export function previewOf(header: string | string[] | undefined): SitePreview | null {
  if (typeof header !== 'string' || header === '') return null;
  const site: Record<string, unknown> = {};
  let custom: Record<string, unknown> = {};
  for (const [key, raw] of new URLSearchParams(header)) {
    const name = PREVIEWED[key];
    if (!name) continue;
    const value = raw === '' || raw === 'null' || raw === 'undefined' ? null : raw;
    if (name === 'custom') custom = customOf(value);
    else site[name] = value;
  }
  site._preview = header;
  return { site, custom };
}

function customOf(value: string | null): Record<string, unknown> {
  if (value === null) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** `@custom` with the preview's values for the settings the theme has; a value the preview does not give stays. */
export function previewedCustom(stored: Record<string, unknown>, preview: SitePreview): Record<string, unknown> {
  const custom = { ...stored };
  for (const key of Object.keys(stored)) if (preview.custom[key] !== undefined) custom[key] = preview.custom[key];
  return custom;
}
