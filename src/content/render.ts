import path from 'node:path';
import {
  defaultNodes,
  htmlToLexicalConverter,
  lexicalHtmlRendererClass,
  mobiledocLibs,
  type ImageOptimization,
  type LexicalRenderOptions,
} from './ghost-libs.js';
import { ghostNodeRenderers } from './node-renderers/index.js';

/** What Ghost's renderers need to know about the site. */
export interface RenderOptions {
  /**
   * The configured site URL. Images under `<site>/content/images/` get a `srcset` of resized variants
   * (`/content/images/size/w600/…`) exactly as Ghost emits; without it only site-relative image paths do.
   */
  siteUrl?: string;
}

/** Ghost's `imageOptimization` config (`contentImageSizes` from its overrides.json). */
export const IMAGE_OPTIMIZATION: ImageOptimization = {
  resize: true,
  // Ghost resizes uploads to this width; gallery and mobiledoc image cards print the resized dimensions.
  defaultMaxWidth: 2000,
  srcsets: true,
  contentImageSizes: {
    w600: { width: 600 },
    w1000: { width: 1000 },
    w1600: { width: 1600 },
    w2400: { width: 2400 },
  },
};

/** Ghost resizes every image type except icons and vector images (`@tryghost/image-transform`). */
export function canTransformImage(src: string): boolean {
  let pathname = src;
  try {
    pathname = new URL(src, 'http://x/').pathname;
  } catch {
    // keep the raw value; path.extname copes with anything
  }
  return !['.ico', '.svg', '.svgz'].includes(path.extname(pathname).toLowerCase());
}

type LexicalRenderer = { render(lexical: string, options?: LexicalRenderOptions): Promise<string> };
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
 * renderers Ghost overrides replaced by ours (see node-renderers/). Throws on a document Lexical cannot
 * parse; the caller answers 422 `Invalid lexical structure.` as Ghost does.
 */
export async function renderLexical(lexical: string, options: RenderOptions = {}): Promise<string> {
  return getLexicalRenderer().render(lexical, {
    siteUrl: options.siteUrl,
    imageOptimization: IMAGE_OPTIMIZATION,
    canTransformImage,
    // contentVisibility is always on in 5.130.6; emailCustomization is forced on by Ghost's lexical lib.
    feature: { contentVisibility: true, emailCustomization: true },
    nodeRenderers: ghostNodeRenderers,
  });
}

type MobiledocRenderer = { render(mobiledoc: unknown, options?: Record<string, unknown>): string };
const mobiledocRenderers = new Map<string, MobiledocRenderer>();

/** Card transformers for the `__GHOST_URL__` mobiledoc transform share the renderer's card set. */
export function mobiledocCards(siteUrl: string | undefined): unknown[] {
  const { CardFactory, cards } = mobiledocLibs();
  const factory = new CardFactory({ siteUrl, imageOptimization: IMAGE_OPTIMIZATION, canTransformImage });
  return cards.map((card) => factory.createCard(card));
}

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
 * `?source=html`: html → serialized lexical with `@tryghost/kg-html-to-lexical`, as Ghost's input serializer
 * does. The caller then renders html from the result (Ghost never keeps the client's html).
 */
export async function htmlToLexical(html: string): Promise<string> {
  return JSON.stringify(htmlToLexicalConverter()(html));
}

/**
 * Pays the one-off costs (module loading, jsdom start-up, first render) so the first real request does
 * not. Call it after the server listens, never before: it takes about half a second.
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
  await renderLexical(sample);
  renderMobiledoc(JSON.stringify({ version: '0.3.1', atoms: [], cards: [], markups: [], sections: [[1, 'p', [[0, [], 0, 'warm']]]] }));
  await htmlToLexical('<p>warm</p>');
}
