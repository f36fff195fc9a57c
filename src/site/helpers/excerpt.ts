import { createRequire } from 'node:module';
import { SafeString, type Options } from './env.js';
import { boundedMemo } from './memo.js';

const require = createRequire(import.meta.url);
const downsize = require('downsize') as (text: string, options: { words?: number; characters?: number }) => string;

/** lodash's `escape`, which Ghost applies to excerpts (Handlebars' escaping differs on `=` and backticks). */
const htmlEscape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Cuts of short texts (excerpts, descriptions) are kept: the same posts' excerpts are cut on every list page. */
const cuts = boundedMemo<string>(4000);
const MEMO_TEXT = 4096;

/** Ghost's excerpt truncation (`meta/generate-excerpt`): 50 words unless told otherwise. */
export function truncate(text: string, options: { words?: number; characters?: number }): string {
  const opts = { ...options };
  if (!opts.words && !opts.characters) opts.words = 50;
  if (text.length > MEMO_TEXT) return downsize(text, opts);
  return cuts(`${opts.words ?? ''}|${opts.characters ?? ''}|${text}`, () => downsize(text, opts));
}

/** `{{excerpt words="30"}}`: the custom excerpt (whole) or the generated one, escaped and truncated. */
export function excerpt(this: Record<string, unknown>, options: Options) {
  const hash = (options?.hash ?? {}) as Record<string, unknown>;
  const custom = this.custom_excerpt;
  const raw = custom ? String(custom) : this.excerpt ? String(this.excerpt) : '';
  const text = htmlEscape(raw);
  const opts: { words?: number; characters?: number } = {};
  for (const key of ['words', 'characters'] as const) if (hash[key] !== undefined) opts[key] = parseInt(String(hash[key]), 10);
  if (custom) {
    opts.characters = text.length;
    delete opts.words;
  }
  return new SafeString(truncate(text, opts));
}
