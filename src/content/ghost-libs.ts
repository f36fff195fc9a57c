import { createRequire } from 'node:module';

/**
 * Ghost's own content libraries, at the versions Ghost 5.130.6 ships. They are CommonJS (their ESM builds
 * fail on Node 20), so they are loaded through `require`, and lazily: the lexical renderer starts jsdom
 * (~0.5 s), which must not sit on the server's start-up path.
 */
const require = createRequire(import.meta.url);

/** A node class of `@tryghost/kg-default-nodes`; only what the URL transform reads is typed. */
export interface LexicalNodeClass {
  getType(): string;
  urlTransformMap?: Record<string, unknown>;
}

export interface LexicalRenderOptions {
  siteUrl?: string;
  imageOptimization?: ImageOptimization;
  canTransformImage?: (src: string) => boolean;
  feature?: Record<string, boolean>;
  nodeRenderers?: Record<string, unknown>;
  target?: 'html' | 'email';
  /** The email target's extras: the post's URL and the newsletter's design. */
  postUrl?: string;
  design?: Record<string, unknown>;
  /** Heading ids already given in this document (the renderer fills it): shared when rendering it in pieces. */
  usedIdAttributes?: Record<string, number>;
}

export interface ImageOptimization {
  resize?: boolean;
  defaultMaxWidth?: number;
  srcsets?: boolean;
  contentImageSizes?: Record<string, { width: number; height?: number }>;
}

interface LexicalHtmlRenderer {
  /** A serialized document, or its parsed form. */
  render(lexical: string | object, options?: LexicalRenderOptions): Promise<string>;
}

type LexicalHtmlRendererClass = new (options: { nodes: LexicalNodeClass[] }) => LexicalHtmlRenderer;

interface MobiledocCard {
  name: string;
}

interface MobiledocHtmlRenderer {
  render(mobiledoc: unknown, options?: Record<string, unknown>): string;
}

type MobiledocHtmlRendererClass = new (options: {
  cards: MobiledocCard[];
  atoms: unknown[];
  unknownCardHandler?: (args: { env: { name: string } }) => void;
}) => MobiledocHtmlRenderer;

type CardFactoryClass = new (options: Record<string, unknown>) => { createCard(card: unknown): MobiledocCard };

/** `@tryghost/url-utils` 4.4.14: the `__GHOST_URL__` transforms Ghost's models run on every read and write. */
export interface UrlUtils {
  toTransformReady(url: string, options?: Record<string, unknown>): string;
  transformReadyToAbsolute(value: string): string;
  htmlToTransformReady(html: string, options?: Record<string, unknown>): string;
  plaintextToTransformReady(plaintext: string, options?: Record<string, unknown>): string;
  markdownToTransformReady(markdown: string, options?: Record<string, unknown>): string;
  lexicalToTransformReady(lexical: string, options: Record<string, unknown>): string;
  mobiledocToTransformReady(mobiledoc: string, options: Record<string, unknown>): string;
  relativeToAbsolute(url: string, options?: Record<string, unknown>): string;
  absoluteToRelative(url: string, options?: Record<string, unknown>): string;
  htmlRelativeToAbsolute(html: string, options?: Record<string, unknown>): string;
  htmlAbsoluteToRelative(html: string, options?: Record<string, unknown>): string;
  markdownRelativeToAbsolute(markdown: string, options?: Record<string, unknown>): string;
  markdownAbsoluteToRelative(markdown: string, options?: Record<string, unknown>): string;
}

type UrlUtilsClass = new (options: {
  getSubdir: () => string;
  getSiteUrl: () => string;
  getAdminUrl: () => string;
  baseApiPath?: string;
}) => UrlUtils;

export function lexicalHtmlRendererClass(): LexicalHtmlRendererClass {
  const mod = require('@tryghost/kg-lexical-html-renderer') as { default?: LexicalHtmlRendererClass } & LexicalHtmlRendererClass;
  return mod.default ?? mod;
}

/** Constructing the renderer without these nodes silently drops every card (image, bookmark, …). */
export function defaultNodes(): LexicalNodeClass[] {
  return (require('@tryghost/kg-default-nodes') as { DEFAULT_NODES: LexicalNodeClass[] }).DEFAULT_NODES;
}

export function htmlToLexicalConverter(): (html: string) => unknown {
  return (require('@tryghost/kg-html-to-lexical') as { htmlToLexical: (html: string) => unknown }).htmlToLexical;
}

export function htmlToMobiledocConverter(): (html: string) => unknown {
  return (require('@tryghost/html-to-mobiledoc') as { toMobiledoc: (html: string) => unknown }).toMobiledoc;
}

export function mobiledocLibs(): {
  Renderer: MobiledocHtmlRendererClass;
  CardFactory: CardFactoryClass;
  cards: unknown[];
  atoms: unknown[];
} {
  return {
    Renderer: require('@tryghost/kg-mobiledoc-html-renderer') as MobiledocHtmlRendererClass,
    CardFactory: require('@tryghost/kg-card-factory') as CardFactoryClass,
    cards: require('@tryghost/kg-default-cards') as unknown[],
    atoms: require('@tryghost/kg-default-atoms') as unknown[],
  };
}

export function urlUtilsClass(): UrlUtilsClass {
  return require('@tryghost/url-utils') as UrlUtilsClass;
}

type UrlFunction = (url: string, siteUrl: string, ...rest: unknown[]) => string;

/** url-utils' transforms of one URL, which its html transform applies to each attribute (html-urls.ts). */
export function urlTransforms(): {
  relativeToAbsolute: (url: string, siteUrl: string, itemPath: string | null, options: Record<string, unknown>) => string;
  absoluteToTransformReady: (url: string, siteUrl: string, options: Record<string, unknown>) => string;
} {
  return {
    relativeToAbsolute: require('@tryghost/url-utils/lib/utils/relative-to-absolute') as UrlFunction,
    absoluteToTransformReady: require('@tryghost/url-utils/lib/utils/absolute-to-transform-ready') as UrlFunction,
  };
}

export function plaintextConverters(): { excerpt: (html: string) => string; email: (html: string) => string } {
  return require('@tryghost/html-to-plaintext') as { excerpt: (html: string) => string; email: (html: string) => string };
}

/** `@tryghost/helpers` 1.1.97: what readingMinutes is made of (text.ts counts words itself, checked against countWords). */
export function readingHelpers(): { countImages: (html: string) => number; countWords: (html: string) => number; readingMinutes: (html: string, additionalImages?: number) => number | '' } {
  return (require('@tryghost/helpers') as { utils: ReturnType<typeof readingHelpers> }).utils;
}

/**
 * Ghost's lexical renderer's heading id function (slug of the text, `-1`, `-2`, … for repeats recorded in
 * `usedIdAttributes`), called directly by render-plain.ts so ids are the renderer's own.
 */
export function headingIdGenerator(): (text: string, options: { usedIdAttributes: Record<string, number> }) => string {
  const mod = require('@tryghost/kg-lexical-html-renderer/build/utils/generate-id') as {
    default: (text: string, options: { usedIdAttributes: Record<string, number> }) => string;
  };
  return mod.default;
}
