import { createRequire } from 'node:module';
import { errors } from '../errors.js';

const require = createRequire(import.meta.url);
// Ghost's own grammar (jison). Its ESM entry does not load on Node 20, hence require.
const nqlLang = require('@tryghost/nql-lang') as { parse(input: string): unknown };

/**
 * The Mongo-like JSON that nql-lang produces: one key per object, `$and`/`$or` arrays, comparison objects
 * (`{$ne: x}`, `{$in: [..]}`, `{$regex: /x/i}`…), and `yg` for a parenthesised group nested in another.
 */
export type NqlValue = string | number | boolean | null;
export type NqlNode = { [key: string]: unknown };

/** Longest filter we parse: far above any real filter (Ghost's admin builds ~2 KB ones), well below abuse. */
export const MAX_FILTER_LENGTH = 100_000;
/** Deepest group nesting we compile; the compiler recurses once per level. */
export const MAX_FILTER_DEPTH = 64;

const parseError = (cause?: unknown) => errors.badRequest({ message: 'Error parsing filter', cause });

/**
 * Parses an NQL string as Ghost does, failing with Ghost's 400 `Error parsing filter`.
 *
 * The lexer reads a one-character value only when it is not followed by `,` `)` `]` and a few others, so
 * `tag:[a,b]` and `(tag:a)` are syntax errors in Ghost; posts and pages wrap the client's filter in
 * parentheses before parsing (`(<filter>)+type:post`), which is why `filter=tag:a` fails there but works
 * on tags. Callers reproduce that by passing `wrap: true`.
 */
export function parseNql(input: string, options: { wrap?: boolean } = {}): NqlNode {
  if (input.length > MAX_FILTER_LENGTH) throw parseError();
  const text = options.wrap ? `(${input})` : input;
  let parsed: unknown;
  try {
    parsed = nqlLang.parse(text);
  } catch (err) {
    throw parseError(err);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw parseError();
  assertDepth(parsed, 0);
  return parsed as NqlNode;
}

function assertDepth(node: unknown, depth: number): void {
  if (depth > MAX_FILTER_DEPTH) throw parseError();
  if (Array.isArray(node)) {
    for (const child of node) assertDepth(child, depth + 1);
  } else if (node && typeof node === 'object' && !(node instanceof RegExp)) {
    for (const child of Object.values(node)) assertDepth(child, depth + 1);
  }
}
