import { contentThreads, runInWorker } from '../workers/pool.js';
import { lexicalOfPieces } from './html-blocks.js';
import type { ContentFromHtml, ContentState, RenderRefusal, RenderedContent } from './stored-content.js';

/*
 * The content work a write does, run on the worker pool (src/worker.ts names each task): a 20 MB post
 * renders for seconds, and on the event loop every other request would wait for it.
 */

/** From this many characters of lexical, its stored form is made on a second thread beside the render. */
const LEXICAL_STORED_APART_FROM_CHARS = 1024 * 1024;

/**
 * The stored columns and reading time (stored-content.ts). For a large lexical document, its `__GHOST_URL__` form
 * (url-utils parses and writes the whole JSON again: ~0.7 CPU s for 14 MB) is made by a second task at the same
 * time as the render and plaintext, when the pool has a second thread for it. `lexicalStoredAsIs`: the lexical is
 * known to be its own stored form (the caller checked converter output with ghost-url.ts lexicalStoredAsIs).
 */
export async function storedContentOffThread(
  content: ContentState,
  siteUrl: string,
  featureImage: boolean | null,
  lexicalStoredAsIs = false,
): Promise<RenderedContent | RenderRefusal> {
  const { lexical } = content;
  if (lexical !== null && lexicalStoredAsIs) {
    // Known to be its own stored form (ghost-url.ts lexicalStoredAsIs): neither made again nor sent back.
    const rendered = await runInWorker<RenderedContent | RenderRefusal>('storedContent', { content, siteUrl, featureImage, lexicalStoredElsewhere: true });
    return 'refused' in rendered ? rendered : { ...rendered, stored: { ...rendered.stored, lexical } };
  }
  if (lexical === null || lexical.length < LEXICAL_STORED_APART_FROM_CHARS || contentThreads() < 2) {
    return runInWorker<RenderedContent | RenderRefusal>('storedContent', { content, siteUrl, featureImage });
  }
  // Settled either way first: a document the renderer refuses is Ghost's 422, whatever the other task made of it.
  const storedLexical = runInWorker<string | null>('lexicalForStorage', { lexical, siteUrl }).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const rendered = await runInWorker<RenderedContent | RenderRefusal>('storedContent', { content, siteUrl, featureImage, lexicalStoredElsewhere: true });
  const other = await storedLexical;
  if ('refused' in rendered) return rendered;
  if ('error' in other) throw other.error;
  return { ...rendered, stored: { ...rendered.stored, lexical: other.value ?? lexical } };
}

/** Below this many characters a document is converted in one piece without looking for cuts. */
const WHOLE_BELOW_CHARS = 16 * 1024;

/**
 * Ghost's `@tryghost/kg-html-to-lexical`; rejects when the converter throws. A large document of plain markup
 * is converted whole by the direct converter; any other large document is cut between
 * its top-level blocks (html-blocks.ts: the same lexical as converting it whole, in time that grows with its
 * size rather than its square) and its pieces converted on the content threads, as many at once as there are
 * threads, so other writes' tasks still find a place in the queue between them.
 */
export async function htmlToLexicalOffThread(html: string): Promise<string> {
  if (html.length < WHOLE_BELOW_CHARS) return runInWorker<string>('htmlToLexical', html);
  // Plain markup converts whole without a DOM (html-direct.ts); anything else is cut and converted in pieces.
  const whole = await runInWorker<{ lexical: string } | { cuts: number[] }>('htmlToLexicalOrCuts', html);
  return 'lexical' in whole ? whole.lexical : lexicalOfCuts(html, whole.cuts);
}

/**
 * A new post's `?source=html`: its lexical, and for a large document of plain markup also its stored columns,
 * converted and rendered on one thread (stored-content.ts contentFromHtml). `rendered` is absent when the
 * caller renders the lexical itself (small or cut documents), as after htmlToLexicalOffThread.
 */
export async function contentFromHtmlOffThread(
  html: string,
  siteUrl: string,
  featureImage: boolean,
): Promise<{ lexical: string; rendered?: RenderedContent | RenderRefusal }> {
  if (html.length < WHOLE_BELOW_CHARS) return { lexical: await runInWorker<string>('htmlToLexical', html) };
  const whole = await runInWorker<ContentFromHtml>('contentFromHtml', { html, siteUrl, featureImage });
  if ('cuts' in whole) return { lexical: await lexicalOfCuts(html, whole.cuts) };
  const { lexical, rendered } = whole;
  if ('refused' in rendered || rendered.stored.lexical !== null) return whole;
  return { lexical, rendered: { ...rendered, stored: { ...rendered.stored, lexical } } };
}

/** The document cut between its top-level blocks, its pieces converted on the content threads and joined. */
async function lexicalOfCuts(html: string, cuts: number[]): Promise<string> {
  if (cuts.length === 0) return runInWorker<string>('htmlToLexical', html);
  const bounds = [0, ...cuts, html.length];
  const nodes: string[] = new Array<string>(bounds.length - 1);
  let next = 0;
  const convertPieces = async () => {
    for (let i = next++; i < nodes.length; i = next++) {
      try {
        nodes[i] = await runInWorker<string>('htmlPieceToLexicalNodes', html.slice(bounds[i], bounds[i + 1]));
      } catch (err) {
        next = nodes.length; // one piece failed: the document is refused, the other pieces need not convert
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(contentThreads(), nodes.length) }, convertPieces));
  return lexicalOfPieces(nodes);
}

/** Ghost's `@tryghost/html-to-mobiledoc`; rejects when the converter throws. */
export const htmlToMobiledocOffThread = (html: string) => runInWorker<string>('htmlToMobiledoc', html);

/** Legacy mobiledoc → html with Ghost's renderer; rejects on an unrenderable document. */
export const renderMobiledocOffThread = (mobiledoc: string, siteUrl: string) => runInWorker<string>('renderMobiledoc', { mobiledoc, siteUrl });

/** `reading_time` (text.ts) counted on the pool: counting the words of a large post takes a while. */
export const readingTimeOffThread = (post: { html: string | null; feature_image: string | null }) =>
  post.html ? runInWorker<number>('readingTime', post) : Promise.resolve(0);

/** Pays a thread's one-off renderer start-up (jsdom, ~0.5 s) before the first real write does. */
export const warmRenderersOffThread = () => runInWorker<void>('warmRenderers', null);
