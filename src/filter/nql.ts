import { createRequire } from 'node:module';
import { errors } from '../errors.js';

const require = createRequire(import.meta.url);
// Ghost's own grammar (jison). Its ESM entry does not load on Node 20, hence require.
let nqlLang: { parse(input: string): unknown } | null = null;

/**
 * The Mongo-like JSON that nql-lang produces: one key per object, `$and`/`$or` arrays, comparison objects
 * (`{$ne: x}`, `{$in: [..]}`, `{$regex: /x/i}`…), and `yg` for a parenthesised group nested in another.
 */
export type NqlValue = string | number | boolean | null;
export type NqlNode = { [key: string]: unknown };

/** Longest filter we parse: far above any real filter (Ghost's admin builds ~2 KB ones), well below abuse. */
export const MAX_FILTER_LENGTH = 100_000;
/** Deepest nesting of the parsed tree (objects and arrays) we compile; the compiler recurses once per level. */
export const MAX_FILTER_DEPTH = 64;
/** Most values (and statements) one filter may hold: each is a bound parameter, and engines cap those. */
export const MAX_FILTER_VALUES = 5_000;

const LIMITS_HELP = `Filters are limited to ${MAX_FILTER_LENGTH} characters, ${MAX_FILTER_VALUES} values and ${MAX_FILTER_DEPTH} levels of nesting.`;
const parseError = (cause?: unknown, tooBig = false) => errors.badRequest({ message: 'Error parsing filter', cause, ...(tooBig ? { help: LIMITS_HELP } : {}) });

/**
 * Parses an NQL string as Ghost does, failing with Ghost's 400 `Error parsing filter`.
 *
 * The lexer reads a one-character value only when it is not followed by `,` `)` `]` and a few others, so
 * `tag:[a,b]` and `(tag:a)` are syntax errors in Ghost; posts and pages wrap the client's filter in
 * parentheses before parsing (`(<filter>)+type:post`), which is why `filter=tag:a` fails there but works
 * on tags. Callers reproduce that by passing `wrap: true`.
 */
export function parseNql(input: string, options: { wrap?: boolean } = {}): NqlNode {
  if (input.length > MAX_FILTER_LENGTH || parenthesisDepth(input) > MAX_FILTER_DEPTH / 2) throw parseError(undefined, true);
  const text = options.wrap ? `(${input})` : input;
  let parsed: unknown;
  try {
    // Loaded on the first filter rather than at start-up.
    nqlLang ??= require('@tryghost/nql-lang') as { parse(input: string): unknown };
    parsed = nqlLang.parse(text);
  } catch (err) {
    throw parseError(err);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw parseError();
  const size = { values: 0 };
  assertSize(parsed, 0, size);
  return parsed as NqlNode;
}

/**
 * Deepest parenthesis nesting outside quoted strings. Checked before parsing: the generated parser takes
 * time quadratic in the nesting (10,000 levels, 20 KB of text, cost seconds of CPU).
 */
function parenthesisDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === "'") quoted = false;
    } else if (c === "'") {
      quoted = true;
    } else if (c === '(') {
      deepest = Math.max(deepest, ++depth);
    } else if (c === ')') {
      depth--;
    }
  }
  return deepest;
}

function assertSize(node: unknown, depth: number, size: { values: number }): void {
  if (depth > MAX_FILTER_DEPTH) throw parseError(undefined, true);
  if (Array.isArray(node)) {
    for (const child of node) assertSize(child, depth + 1, size);
  } else if (node && typeof node === 'object' && !(node instanceof RegExp)) {
    for (const child of Object.values(node)) assertSize(child, depth + 1, size);
  } else if (++size.values > MAX_FILTER_VALUES) {
    throw parseError(undefined, true);
  }
}
