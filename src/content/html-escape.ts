/**
 * Escaping as jsdom serialises a DOM (parse5's serializer with the `entities` package's escapers), for the html
 * written without a DOM (render-plain.ts, render-cards.ts) to come out byte for byte as Ghost's renderer writes it.
 */

// Without the `g` flag for test(), which would otherwise carry lastIndex from one call to the next.
const TEXT_ESCAPE = /[&<>\u00a0]/;
const TEXT_ESCAPES = /[&<>\u00a0]/g;
const ATTRIBUTE_ESCAPE = /[&"\u00a0]/;
const ATTRIBUTE_ESCAPES = /[&"\u00a0]/g;
const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\u00a0': '&nbsp;' };

/** A text node's data as parse5's serializer writes it (outside script, style and the like). */
export function escapeText(text: string): string {
  return TEXT_ESCAPE.test(text) ? text.replace(TEXT_ESCAPES, (c) => ESCAPED[c]) : text;
}

/** An attribute's value as parse5's serializer writes it between double quotes. */
export function escapeAttribute(value: string): string {
  return ATTRIBUTE_ESCAPE.test(value) ? value.replace(ATTRIBUTE_ESCAPES, (c) => ESCAPED[c]) : value;
}

export function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}
