import {
  htmlToStorage,
  lexicalFromStorage,
  lexicalStoredAsIs,
  lexicalToStorage,
  lexicalToStorageInPlace,
  mobiledocToStorage,
  plaintextToStorage,
} from './ghost-url.js';
import { htmlToLexicalDocumentOrCuts } from './html-to-lexical.js';
import { LARGE_TASK_CHARS, collectGarbageNow } from '../workers/release.js';
import { renderLexical, renderLexicalDocument, renderMobiledoc } from './render.js';
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
  const lexical = content.lexical === null || lexicalStoredElsewhere ? null : lexicalToStorage(content.lexical, siteUrl);
  return storedColumns({ html, mobiledoc: content.mobiledoc, storedLexical: lexical, siteUrl, featureImage });
}

/** The columns and reading time from the rendered html (null when empty) and the lexical's stored form. */
function storedColumns({
  html,
  mobiledoc,
  storedLexical,
  siteUrl,
  featureImage,
}: {
  html: string | null;
  mobiledoc: string | null;
  storedLexical: string | null;
  siteUrl: string;
  featureImage: boolean | null;
}): RenderedContent {
  const plaintext = html ? htmlToPlaintext(html) || null : null;
  const storedHtml = html === null ? null : htmlToStorage(html, siteUrl);
  const stored: StoredContent = {
    mobiledoc: mobiledoc === null ? null : mobiledocToStorage(mobiledoc, siteUrl),
    lexical: storedLexical,
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
 * `rendered.stored.lexical` is left null: the caller has the one copy. The converter's document itself is rendered
 * and given its stored form (renderedDocument).
 */
export async function contentFromHtml(task: { html: string; siteUrl: string; featureImage: boolean }): Promise<ContentFromHtml> {
  const { siteUrl, featureImage } = task;
  // The source is converted before the first await and let go (taken out of the task's argument, which the pool
  // holds until the task ends): the 12 MB of a large post's html is then collected with the converter's garbage
  // instead of staying through the render, the plaintext and the result's trip to the main thread (issue 29).
  const made = await renderedDocument(htmlToLexicalDocumentOrCuts(takeHtml(task)), siteUrl);
  if ('cuts' in made) return made;
  const { lexical } = made;
  if ('source' in made) return { lexical, rendered: await storedContent({ content: { lexical: made.source, mobiledoc: null }, siteUrl, featureImage }) };
  if ('refused' in made) return { lexical, rendered: made.refused };
  // The document is gone with renderedDocument's frame (while a frame that read it is live, V8 may still reach it
  // from there): a collection now leaves the plaintext only what is still needed (see renderedDocument).
  if (lexical.length >= LARGE_TASK_CHARS) collectGarbageNow();
  const rendered = storedColumns({ html: made.html, mobiledoc: null, storedLexical: made.storedLexical, siteUrl, featureImage });
  // And the plaintext's garbage before the result leaves: its structured clone, and the main thread's copy made from
  // it, would otherwise come on top of it. On Node 24, where the emptied pages leave the process only at a
  // collection (release.ts), a 12 MB prose save rose +136-157 MB without this one and +94-103 MB with it; on Node 20
  // it changed neither post's peak (issue 29).
  if (lexical.length >= LARGE_TASK_CHARS) collectGarbageNow();
  return { lexical, rendered };
}

/** The task's html, removed from it so that nothing but the caller holds it. */
function takeHtml(task: { html: string }): string {
  const { html } = task;
  task.html = '';
  return html;
}

type RenderedDocument =
  | { cuts: number[] }
  | { lexical: string; source: string }
  | { lexical: string; refused: RenderRefusal }
  | { lexical: string; html: string | null; storedLexical: string | null };

/**
 * The direct converter's document kept as one object through the render and the `__GHOST_URL__` form: the 35 MB
 * of JSON of a 12 MB mixed post is written once and never parsed (it was parsed three times and written three
 * times, most of the thread's garbage-collection time: issue 29). `storedLexical` null: the lexical itself (the
 * usual answer, and then no second copy goes back to the main thread). `source`: the html held `__GHOST_URL__`
 * (rare), so what is rendered is not the document but its text read back. The document does not outlive the call.
 */
async function renderedDocument(whole: ReturnType<typeof htmlToLexicalDocumentOrCuts>, siteUrl: string): Promise<RenderedDocument> {
  if ('cuts' in whole) return whole;
  const { document } = whole;
  const lexical = JSON.stringify(document);
  // What the main thread renders for a new post: the column read back into absolute form (posts.prepare.ts).
  const source = lexicalFromStorage(lexical, siteUrl);
  if (source !== lexical) return { lexical, source };
  // Each stage of a large document leaves tens of MB of garbage that the thread's small young generation has
  // already promoted, and V8 lets the old generation grow to several times what is live before it collects: on a
  // 12 MB mixed post the heap reached 325-355 MB (the save's RSS peak) where 85-150 MB was live. Collected here
  // and before the plaintext, it peaks at 230-255 MB, for 0.05-0.15 s a collection.
  if (lexical.length >= LARGE_TASK_CHARS) collectGarbageNow(); // the converter's garbage, before the render's
  let rendered: string | null;
  try {
    rendered = (await renderLexicalDocument(document, lexical, { siteUrl })) || null;
  } catch (err) {
    return { lexical, refused: { refused: 'lexical', message: (err as Error).message } };
  }
  // The render has finished reading the document: its stored form is made on it in place.
  const storedLexical = !lexicalStoredAsIs(lexical) && lexicalToStorageInPlace(document, siteUrl) ? JSON.stringify(document) : null;
  return { lexical, html: rendered, storedLexical };
}
