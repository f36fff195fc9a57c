/**
 * The worker threads' entry (workers/pool.ts runs it, bundled as dist/worker.mjs): each named export is a
 * task the main thread may hand off. Arguments and results are structured-cloned, so tasks take and return
 * plain data; an error keeps only its message.
 */
import * as render from './content/render.js';

export { storedContent, lexicalForStorage } from './content/stored-content.js';
export { bcryptHash, bcryptCompare } from './auth/bcrypt-tasks.js';
export { htmlToLexical, htmlPieceToLexicalNodes, htmlToMobiledoc, warmRenderers } from './content/render.js';
export { htmlToLexicalOrCuts } from './content/html-to-lexical.js';
export { readingTime } from './content/text.js';

export const renderMobiledoc = ({ mobiledoc, siteUrl }: { mobiledoc: string; siteUrl: string }) => render.renderMobiledoc(mobiledoc, { siteUrl });
export { checkTheme } from './resources/themes/gscan.task.js';
