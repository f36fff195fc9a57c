/**
 * The worker threads' entry (workers/pool.ts runs it, bundled as dist/worker.mjs): each named export is a
 * task the main thread may hand off. Arguments and results are structured-cloned, so tasks take and return
 * plain data; an error keeps only its message. Tasks that may take a large post collect the thread's
 * garbage after a large one (workers/release.ts).
 */
import * as render from './content/render.js';
import * as stored from './content/stored-content.js';
import { htmlToLexicalOrCuts as lexicalOrCuts } from './content/html-to-lexical.js';
import { readingTime as readingTimeOf } from './content/text.js';
import { releasingAfterLarge } from './workers/release.js';

export { bcryptHash, bcryptCompare } from './auth/bcrypt-tasks.js';
export { warmRenderers } from './content/render.js';
export { checkTheme } from './resources/themes/gscan.task.js';

const chars = (text: string | null) => text?.length ?? 0;
const ofHtml = (html: string) => html.length;

export const storedContent = releasingAfterLarge(
  ({ content }: Parameters<typeof stored.storedContent>[0]) => chars(content.lexical) + chars(content.mobiledoc),
  stored.storedContent,
);
export const contentFromHtml = releasingAfterLarge(({ html }: Parameters<typeof stored.contentFromHtml>[0]) => html.length, stored.contentFromHtml);
export const lexicalForStorage = releasingAfterLarge(({ lexical }: Parameters<typeof stored.lexicalForStorage>[0]) => lexical.length, stored.lexicalForStorage);
export const htmlToLexical = releasingAfterLarge(ofHtml, render.htmlToLexical);
export const htmlPieceToLexicalNodes = releasingAfterLarge(ofHtml, render.htmlPieceToLexicalNodes);
export const htmlToMobiledoc = releasingAfterLarge(ofHtml, render.htmlToMobiledoc);
export const htmlToLexicalOrCuts = releasingAfterLarge(ofHtml, lexicalOrCuts);
export const readingTime = releasingAfterLarge((post: Parameters<typeof readingTimeOf>[0]) => chars(post.html), readingTimeOf);
export const renderMobiledoc = releasingAfterLarge(
  ({ mobiledoc }: { mobiledoc: string; siteUrl: string }) => mobiledoc.length,
  ({ mobiledoc, siteUrl }: { mobiledoc: string; siteUrl: string }) => render.renderMobiledoc(mobiledoc, { siteUrl }),
);
