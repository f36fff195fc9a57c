/**
 * Ghost 5.130.6's content pipeline, with Ghost's own libraries (content-formats.md). In the order Ghost's post
 * model runs it on a write:
 *  1. `?source=html`: lexical = htmlToLexical(html); an existing mobiledoc post instead keeps
 *     mobiledoc = htmlToMobiledoc(html).
 *  2. html = renderLexical(lexical, {siteUrl}) or renderMobiledoc(mobiledoc, {siteUrl}), from the document as
 *     received (not its `__GHOST_URL__` form); '' is stored as NULL. Only when the document changed
 *     (or `force_rerender`).
 *  3. plaintext = htmlToPlaintext(html) (text.ts), '' → NULL; NULL when html is NULL.
 *  4. Store every field in its `__GHOST_URL__` form (ghost-url.ts); read them back with the *FromStorage twins,
 *     then derive `excerpt`, `reading_time` (text.ts) and `url` (urls.ts). Content API html also goes
 *     through tagOutboundLinks (outbound-links.ts).
 */
import {
  defaultNodes,
  htmlToMobiledocConverter,
  lexicalHtmlRendererClass,
  mobiledocLibs,
  type LexicalRenderOptions,
} from './ghost-libs.js';
import { htmlToStorage, lexicalToStorage } from './ghost-url.js';
import { htmlToLexicalDocument } from './html-to-lexical.js';
import { ghostNodeRenderers } from './node-renderers/index.js';
import { plainTopLevel } from './render-plain.js';
import { IMAGE_OPTIMIZATION, canTransformImage, mobiledocCards } from './render-options.js';
import { plaintextWhileParsing } from './plaintext-streamed.js';
import { htmlToPlaintext, readingTime } from './text.js';

export { IMAGE_OPTIMIZATION, canTransformImage };

/** What Ghost's renderers need to know about the site. */
export interface RenderOptions {
  /**
   * The configured site URL. Images under `<site>/content/images/` get a `srcset` of resized variants
   * (`/content/images/size/w600/…`) exactly as Ghost emits; without it only site-relative image paths do.
   */
  siteUrl?: string;
}

type LexicalRenderer = { render(lexical: string | object, options?: LexicalRenderOptions): Promise<string> };
let lexicalRenderer: LexicalRenderer | null = null;

function getLexicalRenderer(): LexicalRenderer {
  if (!lexicalRenderer) {
    const Renderer = lexicalHtmlRendererClass();
    lexicalRenderer = new Renderer({ nodes: defaultNodes() });
  }
  return lexicalRenderer;
}

/**
 * Lexical JSON → html, as Ghost 5.130.6 stores it in `posts.html`: Ghost's renderer and nodes, with the card
 * renderers Ghost overrides replaced by ours (see node-renderers/), and top-level nodes of plain markup, image and
 * code cards written directly (render-plain.ts, render-cards.ts: the same html). Throws on a document Lexical
 * cannot parse; the caller answers 422 `Invalid lexical structure.` as Ghost does.
 */
export async function renderLexical(lexical: string, options: RenderOptions = {}): Promise<string> {
  return renderLexicalInPieces(lexical, options);
}

/** Ghost's renderer over the whole document in one go, nothing written directly: what renderLexical must equal. */
export async function renderLexicalWithGhost(lexical: string, options: RenderOptions = {}): Promise<string> {
  return getLexicalRenderer().render(lexical, lexicalRenderOptions(options));
}

function lexicalRenderOptions(options: RenderOptions): LexicalRenderOptions {
  return {
    siteUrl: options.siteUrl,
    imageOptimization: IMAGE_OPTIMIZATION,
    canTransformImage,
    // contentVisibility is always on in 5.130.6; emailCustomization is forced on by Ghost's lexical lib.
    feature: { contentVisibility: true, emailCustomization: true },
    nodeRenderers: ghostNodeRenderers,
  };
}

interface LexicalDocument {
  root: { type: unknown; children: unknown[] } & Record<string, unknown>;
}

/**
 * A document rendered a top-level node at a time: a node of plain markup (paragraphs, headings, lists, quotes,
 * text formats, links, rules) or an image or code card written directly by render-plain.ts, the others by Ghost's
 * renderer, at most `nodesPerPiece` consecutive ones per call. The renderer builds a Lexical node for everything
 * it is given and a DOM element for each while writing the html, so a 12 MB post in one go held hundreds of MB and
 * seconds of CPU. Ghost's renderer writes each top-level node on its own and joins the results, so the pieces
 * joined are the whole's html, given the two things it keeps across a document: heading ids already used (one
 * `usedIdAttributes` shared by every piece, filled in document order) and the dropping of a trailing blank
 * paragraph (a piece never ends on one, so only the document's last can be dropped).
 */
export async function renderLexicalInPieces(lexical: string, options: RenderOptions = {}, nodesPerPiece = 400): Promise<string> {
  let document: unknown;
  try {
    document = JSON.parse(lexical);
  } catch {
    return renderLexicalWithGhost(lexical, options); // the renderer's own refusal (and message)
  }
  return renderLexicalDocument(document, lexical, options, nodesPerPiece);
}

/**
 * renderLexicalInPieces on the document already parsed (`lexical` is its text, for Ghost's renderer when the whole
 * is handed to it): a large post's converter output is rendered from the object it was written from rather than
 * from a parse of its 35 MB of JSON (issue 29). The document is only read.
 */
export async function renderLexicalDocument(parsed: unknown, lexical: string, options: RenderOptions = {}, nodesPerPiece = 400): Promise<string> {
  const document = parsed as Partial<LexicalDocument> | null;
  // Not a document with a root: the renderer's own refusal or reading of it.
  if (document?.root?.type !== 'root' || !Array.isArray(document.root.children)) return renderLexicalWithGhost(lexical, options);
  const shared: LexicalRenderOptions = { ...lexicalRenderOptions(options), usedIdAttributes: {} };
  const root = document.root;
  const children = root.children;
  const parts: string[] = [];
  // Ghost's renderer turns a throw while writing (a card's, or a heading whose text slugify cannot encode) into
  // an empty document; a piece that comes out empty though it holds more than blank paragraphs may be that, and
  // the whole document is then rendered in one go, as Ghost does.
  let failed = false;
  const renderWithGhost = async (start: number, end: number) => {
    const piece = children.slice(start, end);
    const html = await getLexicalRenderer().render({ ...document, root: { ...root, children: piece } }, shared);
    if (html === '' && !piece.every(isBlankParagraph)) failed = true;
    parts.push(html);
  };
  let pending = 0; // children[pending, i) wait for Ghost's renderer
  let lastWrittenDirectly = false;
  for (let i = 0; i < children.length; i++) {
    // A piece for Ghost's renderer must not end on a blank paragraph: it would drop it.
    const write = i > pending && isBlankParagraph(children[i - 1]) ? null : plainTopLevel(children[i], options.siteUrl);
    if (write === null) {
      if (i - pending >= nodesPerPiece && !isBlankParagraph(children[i - 1])) {
        await renderWithGhost(pending, i);
        if (failed) break;
        pending = i;
      }
      lastWrittenDirectly = false;
      continue;
    }
    if (i > pending) await renderWithGhost(pending, i);
    if (failed) break;
    parts.push(write(shared.usedIdAttributes!));
    pending = i + 1;
    lastWrittenDirectly = true;
  }
  if (!failed && pending < children.length) await renderWithGhost(pending, children.length);
  if (failed) return renderLexicalWithGhost(lexical, options);
  // Koenig keeps a blank paragraph at the end of a document, and Ghost's renderer drops it.
  if (lastWrittenDirectly && isBlankParagraph(children[children.length - 1])) parts.pop();
  return parts.join('');
}

/** A paragraph the renderer would drop at the end of a document (no visible text); unsure counts as blank. */
function isBlankParagraph(node: unknown): boolean {
  return (node as { type?: unknown }).type === 'paragraph' && !hasVisibleText(node);
}

function hasVisibleText(node: unknown): boolean {
  const { text, children } = node as { text?: unknown; children?: unknown };
  if (typeof text === 'string' && /\S/.test(text)) return true;
  return Array.isArray(children) && children.some(hasVisibleText);
}

/** The newsletter design the email target of Ghost's cards reads (colours, corners, button style). */
export type EmailDesign = Record<string, string | boolean | null>;

/**
 * Lexical JSON → html for a newsletter: the cards' email variants (tables, inline-friendly markup, `data-gh-segment`
 * blocks, the `<!--members-only-->` marker at the paywall) from Ghost's library, as Ghost's email renderer asks for them.
 */
export async function renderLexicalForEmail(lexical: string, options: RenderOptions & { postUrl: string; design: EmailDesign }): Promise<string> {
  return getLexicalRenderer().render(lexical, {
    siteUrl: options.siteUrl,
    imageOptimization: IMAGE_OPTIMIZATION,
    canTransformImage,
    feature: { contentVisibility: true, emailCustomization: true },
    nodeRenderers: ghostNodeRenderers,
    target: 'email',
    postUrl: options.postUrl,
    design: options.design,
  } as LexicalRenderOptions);
}

type MobiledocRenderer = { render(mobiledoc: unknown, options?: Record<string, unknown>): string };
const mobiledocRenderers = new Map<string, MobiledocRenderer>();

function getMobiledocRenderer(siteUrl: string | undefined): MobiledocRenderer {
  const key = siteUrl ?? '';
  let renderer = mobiledocRenderers.get(key);
  if (!renderer) {
    const { Renderer, atoms } = mobiledocLibs();
    renderer = new Renderer({
      cards: mobiledocCards(siteUrl) as { name: string }[],
      atoms,
      // Ghost logs and renders nothing for a card it does not know; so do we (the card is skipped).
      unknownCardHandler: () => undefined,
    });
    mobiledocRenderers.set(key, renderer);
  }
  return renderer;
}

/**
 * Legacy mobiledoc JSON → html with Ghost's mobiledoc renderer and default cards. Throws on invalid JSON or
 * an unrenderable document (Ghost answers 422 `Invalid mobiledoc structure.`).
 */
export function renderMobiledoc(mobiledoc: string, options: RenderOptions = {}): string {
  return getMobiledocRenderer(options.siteUrl).render(JSON.parse(mobiledoc));
}

/**
 * `?source=html`: html → serialized lexical as `@tryghost/kg-html-to-lexical` makes it (html-to-lexical.ts),
 * as Ghost's input serializer does. The caller then renders html from the result (Ghost never keeps the
 * client's html). A throw is Ghost's 422 `Failed to convert HTML to Lexical`.
 */
export async function htmlToLexical(html: string): Promise<string> {
  return JSON.stringify(htmlToLexicalDocument(html));
}

/**
 * One piece of a document cut by splitHtmlAtBlocks (html-blocks.ts) → its top-level lexical nodes as JSON
 * text without the enclosing brackets, ready to be joined with the other pieces' by html-blocks.ts's lexicalOfPieces.
 */
export async function htmlPieceToLexicalNodes(html: string): Promise<string> {
  return JSON.stringify(htmlToLexicalDocument(html).root.children).slice(1, -1);
}

/**
 * `?source=html` also converts to mobiledoc with `@tryghost/html-to-mobiledoc` (Ghost does it first, always):
 * an existing mobiledoc post that is edited with `?source=html` stays mobiledoc and keeps this result. A throw
 * is Ghost's 422 `Failed to convert HTML to Mobiledoc`. Loaded on first use (legacy posts only).
 */
export async function htmlToMobiledoc(html: string): Promise<string> {
  return JSON.stringify(htmlToMobiledocConverter()(html));
}

/**
 * Pays the one-off costs of a lexical write (module loading, jsdom start-up, first render, html → lexical,
 * plaintext, the `__GHOST_URL__` transforms) so the first real request does not. Call it after the server
 * listens, never before: it takes about 0.6 s and ~75 MB. The mobiledoc renderer (legacy posts only, another
 * ~35 MB) stays lazy.
 */
export async function warmRenderers(): Promise<void> {
  const sample = JSON.stringify({
    root: {
      children: [
        { children: [{ detail: 0, format: 1, mode: 'normal', style: '', text: 'warm', type: 'extended-text', version: 1 }], direction: null, format: '', indent: 0, type: 'paragraph', version: 1 },
        { type: 'image', version: 1, src: '/content/images/warm.jpg', width: 1200, height: 800, title: '', alt: '', caption: '', cardWidth: 'regular', href: '' },
      ],
      direction: null, format: '', indent: 0, type: 'root', version: 1,
    },
  });
  const site = 'http://localhost/';
  const html = await renderLexical(sample, { siteUrl: site });
  // The sample's nodes are all written directly (render-cards.ts); Ghost's renderer, and jsdom under it, are
  // warmed on their own for the first card that is not.
  await renderLexicalWithGhost(sample, { siteUrl: site });
  htmlToPlaintext(html);
  plaintextWhileParsing(html); // compiles its converter now, not on the first large post
  readingTime({ html, feature_image: null });
  htmlToStorage(html, site);
  lexicalToStorage(sample, site);
  await htmlToLexical('<p>warm</p>');
}
