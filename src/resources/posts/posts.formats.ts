import { errors } from '../../errors.js';
import { lexicalToStorage, mobiledocToStorage } from '../../content/ghost-url.js';
import {
  contentFromHtmlOffThread,
  htmlToLexicalOffThread,
  htmlToMobiledocOffThread,
  renderMobiledocOffThread,
  storedContentOffThread,
} from '../../content/off-thread.js';
import type { ContentState, RenderRefusal, RenderedContent, StoredContent } from '../../content/stored-content.js';
import { assertConvertibleHtml } from '../../content/html-limits.js';
import { WorkerDeadlineError } from '../../workers/pool.js';

export type { ContentState, RenderedContent, StoredContent };

/** What an empty editor holds; posts without any content get it. */
export const BLANK_LEXICAL =
  '{"root":{"children":[{"children":[],"direction":null,"format":"","indent":0,"type":"paragraph","version":1}],"direction":null,"format":"","indent":0,"type":"root","version":1}}';

/** `?source=html` on an existing mobiledoc post: it stays mobiledoc, converted from the html. */
export async function mobiledocFromHtml(html: string): Promise<string> {
  assertConvertibleHtml(html);
  try {
    return await htmlToMobiledocOffThread(html);
  } catch (err) {
    // Out of time is ours to answer (500), not the html's fault.
    if (err instanceof WorkerDeadlineError) throw err;
    throw errors.validation({ message: 'Failed to convert HTML to Mobiledoc', cause: err });
  }
}

/** `?source=html`: the html is converted to lexical (Ghost also makes mobiledoc, then keeps lexical). */
export const lexicalFromHtml = (html: string): Promise<string> => convertedHtml(() => htmlToLexicalOffThread(html), html);

/**
 * `?source=html` on a new post: its lexical and, for a large document of plain markup, its stored columns made
 * on the same thread (renderedOrRefused turns them into renderForStorage's answer, when the post is written).
 */
export const contentFromHtml = (html: string, siteUrl: string, featureImage: boolean) =>
  convertedHtml(() => contentFromHtmlOffThread(html, siteUrl, featureImage), html);

async function convertedHtml<T>(convert: () => Promise<T>, html: string): Promise<T> {
  assertConvertibleHtml(html);
  try {
    return await convert();
  } catch (err) {
    if (err instanceof WorkerDeadlineError) throw err;
    throw errors.validation({ message: 'Failed to convert HTML to Lexical', cause: err });
  }
}

/** An existing mobiledoc post converted to lexical (`convert_to_lexical`) goes through its rendered html. */
export const renderedMobiledoc = (mobiledoc: string, siteUrl: string): Promise<string> => renderMobiledocOffThread(mobiledoc, siteUrl);

/**
 * The model's content invariants: one source format at most (an existing
 * mobiledoc post stays mobiledoc, a new post with both keeps lexical), a blank document when there is
 * none.
 */
export function resolveSources(next: ContentState, previous: ContentState | null): ContentState {
  let { mobiledoc, lexical } = next;
  if (previous?.mobiledoc && lexical) lexical = null;
  else if (mobiledoc && lexical) mobiledoc = null;
  if (!mobiledoc && !lexical) lexical = BLANK_LEXICAL;
  return { mobiledoc: mobiledoc || null, lexical: lexical || null };
}

/**
 * Renders html and plaintext at write time and returns the columns as stored (`__GHOST_URL__` form), with the
 * html's reading time (`featureImage`: whether the post has one; null counts none; `lexicalStoredAsIs`: the lexical
 * is known to be its own stored form). Reads never render; an empty rendering is stored as null.
 */
export async function renderForStorage(
  content: ContentState,
  siteUrl: string,
  featureImage: boolean | null,
  lexicalStoredAsIs = false,
): Promise<RenderedContent> {
  return renderedOrRefused(await storedContentOffThread(content, siteUrl, featureImage, lexicalStoredAsIs));
}

/** A rendering, or Ghost's 422 for a document the renderer refused. */
export function renderedOrRefused(stored: RenderedContent | RenderRefusal): RenderedContent {
  if (!('refused' in stored)) return stored;
  if (stored.refused === 'lexical') {
    throw errors.validation({
      message: 'Invalid lexical structure.',
      context: stored.message,
      property: 'lexical',
      help: 'https://ghost.org/docs/publishing/',
    });
  }
  throw errors.validation({ message: 'Invalid mobiledoc structure.', help: 'https://ghost.org/docs/publishing/', cause: new Error(stored.message) });
}

/** Source columns in stored form, to compare a write with what is in the database. */
export function sourcesForStorage(content: ContentState, siteUrl: string): ContentState {
  return {
    mobiledoc: content.mobiledoc === null ? null : mobiledocToStorage(content.mobiledoc, siteUrl),
    lexical: content.lexical === null ? null : lexicalToStorage(content.lexical, siteUrl),
  };
}
