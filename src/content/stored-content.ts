import { htmlToStorage, lexicalFromStorage, lexicalStoredAsIs, lexicalToStorage, mobiledocToStorage, plaintextToStorage } from './ghost-url.js';
import { htmlToLexicalOrCuts } from './html-to-lexical.js';
import { renderLexical, renderMobiledoc } from './render.js';
import { htmlToPlaintext, readingTime } from './text.js';

/** Source of a post in absolute-URL form (as clients send and read it); at most one is set. */
export interface ContentState {
  mobiledoc: string | null;
  lexical: string | null;
}

/** The content columns as stored (`__GHOST_URL__` form). */
export interface StoredContent {
  mobiledoc: string | null;
  lexical: string | null;
  html: string | null;
  plaintext: string | null;
}

/** The stored columns and `reading_time` of their html (null without html). */
export interface RenderedContent {
  stored: StoredContent;
  readingTime: number | null;
}

/**
 * A document the renderer refused (the caller answers Ghost's 422); a plain object because it crosses from
 * the worker thread, where error classes do not survive.
 */
export interface RenderRefusal {
  refused: 'lexical' | 'mobiledoc';
  message: string;
}

/**
 * Renders html and plaintext from the source and returns every content column as stored (an empty rendering is
 * stored as null), with the reading time of the stored html (`featureImage`: whether the post has one, which
 * counts as an image; null: not wanted, none counted). Runs on a worker thread (src/worker.ts): a large post
 * takes seconds, and counting its words here spares sending its html to a thread again.
 */
export async function storedContent({
  content,
  siteUrl,
  featureImage,
  lexicalStoredElsewhere = false,
}: {
  content: ContentState;
  siteUrl: string;
  featureImage: boolean | null;
  /** The lexical's stored form is made by another task (lexicalForStorage), beside this one: left null here. */
  lexicalStoredElsewhere?: boolean;
}): Promise<RenderedContent | RenderRefusal> {
  let html: string | null;
  try {
    html = (content.lexical !== null ? await renderLexical(content.lexical, { siteUrl }) : renderMobiledoc(content.mobiledoc!, { siteUrl })) || null;
  } catch (err) {
    return { refused: content.lexical !== null ? 'lexical' : 'mobiledoc', message: (err as Error).message };
  }
  const plaintext = html ? htmlToPlaintext(html) || null : null;
  const storedHtml = html === null ? null : htmlToStorage(html, siteUrl);
  const stored: StoredContent = {
    mobiledoc: content.mobiledoc === null ? null : mobiledocToStorage(content.mobiledoc, siteUrl),
    lexical: content.lexical === null || lexicalStoredElsewhere ? null : lexicalToStorage(content.lexical, siteUrl),
    html: storedHtml,
    plaintext: plaintext === null ? null : plaintextToStorage(plaintext, siteUrl),
  };
  return { stored, readingTime: storedHtml && featureImage !== null ? readingTime({ html: storedHtml, feature_image: featureImage ? 'yes' : null }) : null };
}

/**
 * The lexical's stored form alone (a worker task run beside storedContent for a large document); null when it is
 * the lexical itself (no site URL in it, as in most posts): the caller keeps the one copy it has instead of
 * receiving tens of MB of the same text from the thread.
 */
export function lexicalForStorage({ lexical, siteUrl }: { lexical: string; siteUrl: string }): string | null {
  const stored = lexicalToStorage(lexical, siteUrl);
  return stored === lexical ? null : stored;
}

/** A large html source converted and rendered on one thread, or where to cut it when it is not plain markup. */
export type ContentFromHtml = { cuts: number[] } | { lexical: string; rendered: RenderedContent | RenderRefusal };

/**
 * `?source=html` for a new post, when the direct converter takes the html whole: its lexical, rendered on the
 * same thread as storedContent would render it on the main thread's behalf. The lexical does not cross to the
 * main thread and back before it is rendered (for a 12 MB post, 14 MB copied twice, and a second thread's heap
 * holding the render beside the first's), issue 29. When the lexical is its own stored form (no site URL in it),
 * `rendered.stored.lexical` is left null: the caller has the one copy.
 */
export async function contentFromHtml({ html, siteUrl, featureImage }: { html: string; siteUrl: string; featureImage: boolean }): Promise<ContentFromHtml> {
  const whole = htmlToLexicalOrCuts(html);
  if ('cuts' in whole) return whole;
  const { lexical } = whole;
  // What the main thread renders for a new post: the column read back into absolute form (posts.prepare.ts).
  const source = lexicalFromStorage(lexical, siteUrl);
  const storedAsIs = source === lexical && lexicalStoredAsIs(lexical);
  const rendered = await storedContent({ content: { lexical: source, mobiledoc: null }, siteUrl, featureImage, lexicalStoredElsewhere: storedAsIs });
  return { lexical, rendered };
}
