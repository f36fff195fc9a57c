import { createRequire } from 'node:module';

/*
 * The `excerpt` plaintext of a large html document, the same string `@tryghost/html-to-plaintext` 1.0.4 makes, in
 * a fraction of the memory (issue 29). The library parses the whole html into one DOM (htmlparser2 + domhandler)
 * and then walks it into html-to-text's text builder; for 14 MB of html that DOM is hundreds of MB of objects that
 * all live until the walk ends, so every young-generation collection on the way copies and promotes them (about
 * half of the plaintext's time, 750 MB allocated). Here the same parser feeds the same walk while it parses: each
 * top-level node is walked as soon as the next top-level node starts (it is complete then: htmlparser2 never
 * reopens a closed element) and then let go, so the DOM never holds more than a node or two at the top.
 *
 * The walk and the builder are the library's own: a converter compiled with Ghost's excerpt settings plus one
 * selector for a marker element, whose formatter receives html-to-text's `walk` and `builder` and runs them over
 * the real document. Nothing is re-implemented; the output is byte-identical by construction, checked against the
 * library on fixtures and generated documents in plaintext-streamed.test.ts.
 */

const require = createRequire(import.meta.url);

/** A domhandler 4 node: only what this file reads or writes. */
interface DomNode {
  type: string;
  prev: DomNode | null;
  children?: DomNode[];
}

type Walk = (nodes: DomNode[], builder: unknown) => void;
type Formatter = (elem: DomNode, walk: Walk, builder: unknown, options: unknown) => void;

interface DomHandler {
  dom: DomNode[];
  tagStack: unknown[];
  addNode(node: DomNode): void;
}
type DomHandlerClass = new () => DomHandler;
type ParserClass = new (handler: DomHandler, options: { decodeEntities: boolean }) => { parseComplete(html: string): void };

/** html-to-text and htmlparser2 exactly as @tryghost/html-to-plaintext loads them (their own nested versions). */
function htmlToTextLibs(): { compile: (options: object) => (html: string) => string; Parser: ParserClass; DomHandler: DomHandlerClass } {
  const fromPlaintext = createRequire(require.resolve('@tryghost/html-to-plaintext'));
  const fromHtmlToText = createRequire(fromPlaintext.resolve('html-to-text'));
  const { compile } = fromPlaintext('html-to-text') as { compile: (options: object) => (html: string) => string };
  const { Parser, DomHandler } = fromHtmlToText('htmlparser2') as { Parser: ParserClass; DomHandler: DomHandlerClass };
  return { compile, Parser, DomHandler };
}

/** The marker element the compiled converter is given; its formatter walks the real document instead. */
const MARKER = 'quire-streamed-plaintext';

/**
 * `@tryghost/html-to-plaintext` 1.0.4's excerpt settings as its `mergeSettings` makes them (base settings, then the
 * excerpt's selectors appended), plus the marker's selector. A change of that library shows in the parity test.
 */
function excerptSettingsWithMarker(formatMarker: Formatter): object {
  return {
    wordwrap: false,
    preserveNewlines: true,
    baseElements: { returnDomByDefault: true },
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: 'h4', options: { uppercase: false } },
      { selector: 'h5', options: { uppercase: false } },
      { selector: 'h6', options: { uppercase: false } },
      { selector: 'table', options: { uppercaseHeaderCells: false } },
      { selector: 'div', format: 'inline' },
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'figcaption', format: 'skip' },
      { selector: 'a[rel=footnote]', format: 'skip' },
      { selector: 'div.footnotes', format: 'skip' },
      { selector: 'hr', format: 'skip' },
      { selector: 'blockquote', format: 'block' },
      { selector: '.kg-signup-card', format: 'skip' },
      { selector: MARKER, format: 'streamedDocument' },
    ],
    formatters: { streamedDocument: formatMarker },
  };
}

/** The document the next marker walks; set only for the duration of one synchronous conversion. */
let pendingHtml: string | null = null;

let converter: ((html: string) => string) | null = null;
let libs: ReturnType<typeof htmlToTextLibs> | null = null;

/**
 * The excerpt plaintext of `html`, identical to `@tryghost/html-to-plaintext`'s `excerpt(html)`, made while the
 * html is parsed. Call it with html within html-to-text's input limit (text.ts cuts first). A document with a
 * `<body` anywhere goes to the library whole: html-to-text then converts only what is inside body elements.
 */
export function plaintextWhileParsing(html: string): string {
  libs ??= htmlToTextLibs();
  if (/<body/i.test(html)) return require('@tryghost/html-to-plaintext').excerpt(html) as string;
  converter ??= libs.compile(excerptSettingsWithMarker(formatMarker));
  pendingHtml = html;
  try {
    return converter(`<${MARKER}></${MARKER}>`);
  } finally {
    pendingHtml = null;
  }
}

/**
 * The marker's formatter: at the top of a fresh builder, walks the pending document into it. A document that
 * itself contains the marker element gets html-to-text's `inline` format for it, as the `*` selector would.
 */
function formatMarker(elem: DomNode, walk: Walk, builder: unknown): void {
  const html = pendingHtml;
  if (html === null) return walk(elem.children ?? [], builder);
  pendingHtml = null;
  walkWhileParsing(html, walk, builder);
}

/** Parses `html` as html-to-text does (`decodeEntities: false`) and walks each top-level node once it is complete. */
function walkWhileParsing(html: string, walk: Walk, builder: unknown): void {
  const { Parser, DomHandler } = libs!;
  const handler = new (topLevelWalkingHandler(DomHandler))(walk, builder);
  new Parser(handler, { decodeEntities: false }).parseComplete(html);
  handler.walkCompleted();
}

let walkingHandlerClass: (new (walk: Walk, builder: unknown) => DomHandler & { walkCompleted(): void }) | null = null;

/** domhandler's handler, walking and dropping the completed top-level nodes whenever a new one is added. */
function topLevelWalkingHandler(DomHandler: DomHandlerClass) {
  return (walkingHandlerClass ??= class TopLevelWalkingHandler extends DomHandler {
    /** Whether dom[0] was walked already (kept only as the previous sibling domhandler links the next node to). */
    private firstWalked = false;

    constructor(
      private readonly walk: Walk,
      private readonly builder: unknown,
    ) {
      super();
    }

    override addNode(node: DomNode): void {
      // At the top (only the root on the stack) every node added so far is closed and final.
      if (this.tagStack.length === 1) this.walkCompleted();
      super.addNode(node);
    }

    /** Walks the top-level nodes not walked yet, then drops all but the last. */
    walkCompleted(): void {
      const nodes = this.dom;
      const start = this.firstWalked ? 1 : 0;
      if (nodes.length <= start) return;
      this.walk(start === 0 ? nodes.slice() : nodes.slice(start), this.builder);
      // The last node stays as domhandler's previous sibling of the next one; its own link back is cut so the
      // walked nodes before it can be collected (it has been walked: nothing reads its `prev` again).
      nodes.splice(0, nodes.length - 1);
      nodes[0].prev = null;
      this.firstWalked = true;
    }
  });
}
