import { plaintextConverters, readingMinutesFn } from './ghost-libs.js';

/**
 * Plaintext is made from at most this many UTF-16 units of html: the converter's own input limit
 * (html-to-text's `maxInputLength`), which Ghost hits too. We cut first, so the rule is ours and documented
 * (README) and the library never prints its truncation warning into the log.
 */
export const PLAINTEXT_HTML_LIMIT = 16_777_216;

/**
 * `posts.plaintext`: Ghost's `@tryghost/html-to-plaintext` 1.0.4 "excerpt" converter over the rendered html
 * (no word wrap, images, figcaptions, `hr` and signup cards skipped, link text without hrefs), from the
 * first PLAINTEXT_HTML_LIMIT units of html. Ghost stores `null` when html is null; call this only with html.
 */
export function htmlToPlaintext(html: string): string {
  return plaintextConverters().excerpt(html.length > PLAINTEXT_HTML_LIMIT ? html.slice(0, PLAINTEXT_HTML_LIMIT) : html);
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
  const minutes = readingMinutesFn()(post.html, post.feature_image ? 1 : 0);
  return typeof minutes === 'number' ? minutes : 0;
}

/** A newsletter's plaintext part: `@tryghost/html-to-plaintext`'s email converter (links kept as `text [url]`), as Ghost. */
export function emailHtmlToPlaintext(html: string): string {
  return plaintextConverters().email(html.length > PLAINTEXT_HTML_LIMIT ? html.slice(0, PLAINTEXT_HTML_LIMIT) : html);
}
