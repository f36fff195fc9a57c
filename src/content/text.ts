import { plaintextConverters, readingHelpers } from './ghost-libs.js';
import { plaintextWhileParsing } from './plaintext-streamed.js';

/**
 * Plaintext is made from at most this many UTF-16 units of html: the converter's own input limit
 * (html-to-text's `maxInputLength`), which Ghost hits too. We cut first, so the rule is ours and documented
 * (README) and the library never prints its truncation warning into the log.
 */
export const PLAINTEXT_HTML_LIMIT = 16_777_216;

/**
 * From this much html the plaintext is made while the html is parsed (plaintext-streamed.ts: the same string in a
 * fraction of the memory). Below it the library's own call is as quick and its DOM small.
 */
export const STREAMED_PLAINTEXT_FROM_CHARS = 256 * 1024;

/**
 * `posts.plaintext`: Ghost's `@tryghost/html-to-plaintext` 1.0.4 "excerpt" converter over the rendered html
 * (no word wrap, images, figcaptions, `hr` and signup cards skipped, link text without hrefs), from the
 * first PLAINTEXT_HTML_LIMIT units of html. Ghost stores `null` when html is null; call this only with html.
 */
export function htmlToPlaintext(html: string): string {
  const input = html.length > PLAINTEXT_HTML_LIMIT ? html.slice(0, PLAINTEXT_HTML_LIMIT) : html;
  return input.length >= STREAMED_PLAINTEXT_FROM_CHARS ? plaintextWhileParsing(input) : plaintextConverters().excerpt(input);
}

/**
 * The `excerpt` output field: `custom_excerpt` when set, else the first 500 UTF-16 units of `plaintext`
 * (no ellipsis, no word boundary), else null. Pass the values as they are output (after `__GHOST_URL__`
 * expansion).
 */
export function excerptOf(post: { custom_excerpt: string | null; plaintext: string | null }): string | null {
  if (post.custom_excerpt !== null && post.custom_excerpt !== undefined) return post.custom_excerpt;
  return post.plaintext ? post.plaintext.substring(0, 500) : null;
}

/**
 * The `reading_time` output field in minutes (`@tryghost/helpers` 1.1.97 `readingMinutes`: 275 words a minute,
 * 12 s for the first image down to 3 s, the feature image counted as one). Ghost omits the field when html is
 * empty; this returns 0 then, and the presenter must leave the field out.
 */
export function readingTime(post: { html: string | null; feature_image: string | null }): number {
  if (!post.html) return 0;
  const imageCount = readingHelpers().countImages(post.html) + (post.feature_image ? 1 : 0);
  let seconds = countWords(post.html) / (275 / 60);
  for (let i = 12; i > 12 - imageCount; i -= 1) seconds += Math.max(i, 3);
  return Math.round(seconds / 60);
}

const TAG = /<("[^"]*"|'[^']*'|[^'">])+\/?>/g;

/**
 * `@tryghost/helpers`' countWords without its array of every word (two million strings for a 12 MB post): runs
 * of its word characters count one each, runs of CJK ideographs one per character (when the run starts at
 * U+4E00 or above, as its `charCodeAt(0) >= 0x4e00`); with no such run at all, its right-to-left pattern's runs.
 * The helpers' own function is the reference in text.test.ts.
 */
export function countWords(html: string): number {
  const text = html.replace(TAG, ' ');
  let count = 0;
  let runs = 0;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (isWordChar(c)) {
      do i++;
      while (i < text.length && isWordChar(text.charCodeAt(i)));
      count += 1;
      runs += 1;
    } else if (isIdeograph(c)) {
      const start = i;
      do i++;
      while (i < text.length && isIdeograph(text.charCodeAt(i)));
      count += c >= 0x4e00 ? i - start : 1;
      runs += 1;
    } else i++;
  }
  if (runs > 0) return count;
  // Ghost's fallback pattern: ([\u0600-\u06ff]+|[\u0591-\u05F4]+), each match one word.
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    const arabic = c >= 0x600 && c <= 0x6ff;
    if (arabic || (c >= 0x591 && c <= 0x5f4)) {
      const inRun = arabic ? (x: number) => x >= 0x600 && x <= 0x6ff : (x: number) => x >= 0x591 && x <= 0x5f4;
      do i++;
      while (i < text.length && inRun(text.charCodeAt(i)));
      count += 1;
    } else i++;
  }
  return count;
}

/** `[a-zA-ZÀ-ÿ0-9_\u0392-\u03c9\u0410-\u04F9]` */
function isWordChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    (c >= 0xc0 && c <= 0xff) ||
    (c >= 0x392 && c <= 0x3c9) ||
    (c >= 0x410 && c <= 0x4f9)
  );
}

/** `[\u4E00-\u9FFF\u3400-\u4dbf\uf900-\ufaff\u3040-\u309f\uac00-\ud7af]` */
function isIdeograph(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0x3040 && c <= 0x309f) ||
    (c >= 0xac00 && c <= 0xd7af)
  );
}

/** A newsletter's plaintext part: `@tryghost/html-to-plaintext`'s email converter (links kept as `text [url]`), as Ghost. */
export function emailHtmlToPlaintext(html: string): string {
  return plaintextConverters().email(html.length > PLAINTEXT_HTML_LIMIT ? html.slice(0, PLAINTEXT_HTML_LIMIT) : html);
}
