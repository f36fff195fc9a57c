import { isValidCustomFont, isValidCustomHeadingFont, type FontSelection } from '@tryghost/custom-fonts';
import { envOf, type Options } from './env.js';

/**
 * Ghost's custom fonts (the Design screen's Brand tab): the saved `heading_font` and `body_font`, or in a
 * Design screen preview the previewed ones even when empty (Ghost's rule). Null when neither is a font Ghost
 * offers; `{{ghost_head}}` prints their CSS and `{{body_class}}` their classes.
 */
export function customFonts(options: Options): FontSelection | null {
  const shown = (options.data.site ?? {}) as Record<string, unknown>;
  const settings = envOf(options).settings;
  const preview = Boolean(shown._preview);
  const heading = preview ? shown.heading_font : settings.get('heading_font');
  const body = preview ? shown.body_font : settings.get('body_font');
  const valid = (typeof heading === 'string' && isValidCustomHeadingFont(heading)) || (typeof body === 'string' && isValidCustomFont(body));
  if (!valid) return null;
  const selection: FontSelection = {};
  if (heading) selection.heading = heading as FontSelection['heading'];
  if (body) selection.body = body as FontSelection['body'];
  return selection;
}
