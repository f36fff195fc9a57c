import { errors } from '../../errors.js';
import { htmlToStorage, lexicalToStorage, mobiledocToStorage, plaintextToStorage } from '../../content/ghost-url.js';
import { htmlToLexical, htmlToMobiledoc, renderLexical, renderMobiledoc } from '../../content/render.js';
import { htmlToPlaintext } from '../../content/text.js';

/** What an empty editor holds; posts without any content get it. */
export const BLANK_LEXICAL =
  '{"root":{"children":[{"children":[],"direction":null,"format":"","indent":0,"type":"paragraph","version":1}],"direction":null,"format":"","indent":0,"type":"root","version":1}}';

/** Source and derived content of a post, in absolute-URL form (as clients send and read it). */
export interface ContentState {
  mobiledoc: string | null;
  lexical: string | null;
}

export interface StoredContent {
  mobiledoc: string | null;
  lexical: string | null;
  html: string | null;
  plaintext: string | null;
}

/** `?source=html` on an existing mobiledoc post: it stays mobiledoc, converted from the html. */
export async function mobiledocFromHtml(html: string): Promise<string> {
  try {
    return await htmlToMobiledoc(html);
  } catch (err) {
    throw errors.validation({ message: 'Failed to convert HTML to Mobiledoc', cause: err });
  }
}

/** `?source=html`: the html is converted to lexical (Ghost also makes mobiledoc, then keeps lexical). */
export async function lexicalFromHtml(html: string): Promise<string> {
  try {
    return await htmlToLexical(html);
  } catch (err) {
    throw errors.validation({ message: 'Failed to convert HTML to Lexical', cause: err });
  }
}

async function render(content: ContentState, siteUrl: string): Promise<string | null> {
  if (content.lexical !== null) {
    try {
      return await renderLexical(content.lexical, { siteUrl });
    } catch (err) {
      throw errors.validation({
        message: 'Invalid lexical structure.',
        context: (err as Error).message,
        property: 'lexical',
        help: 'https://ghost.org/docs/publishing/',
      });
    }
  }
  try {
    return renderMobiledoc(content.mobiledoc!, { siteUrl });
  } catch (err) {
    throw errors.validation({ message: 'Invalid mobiledoc structure.', help: 'https://ghost.org/docs/publishing/', cause: err });
  }
}

/**
 * The model's content invariants (content-formats.md §1): one source format at most (an existing
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
 * Renders html and plaintext at write time and returns the columns as stored (`__GHOST_URL__` form).
 * Reads never render; an empty rendering is stored as null.
 */
export async function renderForStorage(content: ContentState, siteUrl: string): Promise<StoredContent> {
  const html = (await render(content, siteUrl)) || null;
  const plaintext = html ? htmlToPlaintext(html) || null : null;
  return {
    mobiledoc: content.mobiledoc === null ? null : mobiledocToStorage(content.mobiledoc, siteUrl),
    lexical: content.lexical === null ? null : lexicalToStorage(content.lexical, siteUrl),
    html: html === null ? null : htmlToStorage(html, siteUrl),
    plaintext: plaintext === null ? null : plaintextToStorage(plaintext, siteUrl),
  };
}

/** Source columns in stored form, to compare a write with what is in the database. */
export function sourcesForStorage(content: ContentState, siteUrl: string): ContentState {
  return {
    mobiledoc: content.mobiledoc === null ? null : mobiledocToStorage(content.mobiledoc, siteUrl),
    lexical: content.lexical === null ? null : lexicalToStorage(content.lexical, siteUrl),
  };
}
