import { runInWorker } from '../workers/pool.js';
import type { ContentState, RenderRefusal, StoredContent } from './stored-content.js';

/*
 * The content work a write does, run on the worker pool (src/worker.ts names each task): a 20 MB post
 * renders for seconds, and on the event loop every other request would wait for it.
 */

export const storedContentOffThread = (content: ContentState, siteUrl: string) =>
  runInWorker<StoredContent | RenderRefusal>('storedContent', { content, siteUrl });

/** Ghost's `@tryghost/kg-html-to-lexical`; rejects when the converter throws. */
export const htmlToLexicalOffThread = (html: string) => runInWorker<string>('htmlToLexical', html);

/** Ghost's `@tryghost/html-to-mobiledoc`; rejects when the converter throws. */
export const htmlToMobiledocOffThread = (html: string) => runInWorker<string>('htmlToMobiledoc', html);

/** Legacy mobiledoc → html with Ghost's renderer; rejects on an unrenderable document. */
export const renderMobiledocOffThread = (mobiledoc: string, siteUrl: string) => runInWorker<string>('renderMobiledoc', { mobiledoc, siteUrl });

/** `reading_time` (text.ts) counted on the pool: counting the words of a large post takes a while. */
export const readingTimeOffThread = (post: { html: string | null; feature_image: string | null }) =>
  post.html ? runInWorker<number>('readingTime', post) : Promise.resolve(0);

/** Pays a thread's one-off renderer start-up (jsdom, ~0.5 s) before the first real write does. */
export const warmRenderersOffThread = () => runInWorker<void>('warmRenderers', null);
