import { createRequire } from 'node:module';
import { htmlToLexicalConverter } from './ghost-libs.js';
import { directLexicalChildren, type LexicalJson } from './html-direct.js';
import { htmlBlockCuts } from './html-blocks.js';

/**
 * Ghost's html → lexical conversion (`@tryghost/kg-html-to-lexical` 1.2.24) with a lighter DOM. Ghost's
 * function parses `<body>${html.trim()}</body>` into a jsdom document and hands it to lexical's
 * `$generateNodesFromDOM` with Ghost's nodes and transforms. jsdom was most of the cost of a large post:
 * every node it builds carries a symbol tree, mutation records and a CSS style object (12 MB of paragraphs:
 * about half of the save's CPU time). Here the parser jsdom uses (parse5, the same version, so the same tree)
 * builds a linkedom document instead, and the same Lexical and Ghost code converts it.
 *
 * linkedom is not jsdom where Ghost's importers read more than the tree's shape: `style` (jsdom's cssstyle
 * parses and normalises it), IDL attributes (`img.src` resolved, `ol.start` a number), serialised markup
 * (captions, html cards: the two escape differently). Markup using anything outside LIGHT_ELEMENTS /
 * LIGHT_ATTRIBUTES is converted by Ghost's own function, with jsdom. (Converting a large document's pieces
 * a run of blocks at a time, plain runs with linkedom and the others with jsdom, cost more in editors and
 * documents than it saved on a post with a figure in every section.) The output is Ghost's either way:
 * html-to-lexical.test.ts compares the two on the content corpus, generated documents and repaired markup.
 */
const require = createRequire(import.meta.url);

/**
 * Elements whose conversion only reads the tree, the text and the attributes below (text formats, links,
 * headings, lists, quotes, code blocks, line breaks, rules), with no `style` attribute: a `style` read
 * where there is none is empty in both DOMs. Figures and images read `src`/`width` as jsdom's IDL
 * attributes and captions as serialised markup, so they stay with jsdom.
 */
const LIGHT_ELEMENTS = new Set([
  'html', 'head', 'body', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code',
  'strong', 'b', 'em', 'i', 'u', 's', 'del', 'strike', 'sub', 'sup', 'mark', 'a', 'br', 'hr', 'span',
]);

/**
 * Attributes the importers of LIGHT_ELEMENTS read with getAttribute, if at all. Not `start` (lexical reads
 * `ol.start`, a number in jsdom and absent in linkedom), `style` or `class` (cards are recognised by class).
 */
const LIGHT_ATTRIBUTES = new Set(['href', 'title', 'rel', 'target', 'id']);

interface LightNode {
  nodeType: number;
  localName?: string;
  attributes?: ArrayLike<{ name: string }>;
  childNodes: ArrayLike<LightNode>;
}

type LexicalDocument = { root: { children: unknown[] } & Record<string, unknown> };

interface Libraries {
  parse: (html: string, options: { treeAdapter: unknown }) => { body: LightNode };
  newDocument: () => LinkedomDocument;
  editorConfig: Record<string, unknown>;
  createHeadlessEditor: (config: Record<string, unknown>) => Editor;
  registerDefaultTransforms: (editor: Editor) => void;
  $createParagraphNode: () => { remove(): void };
  $getRoot: () => { append(node: unknown): void; select(): unknown };
  $generateNodesFromDOM: (editor: Editor, dom: unknown) => unknown[];
  $insertGeneratedNodes: (editor: Editor, nodes: unknown[], selection: unknown) => void;
  ghostHtmlToLexical: (html: string) => LexicalDocument;
}

interface Editor {
  update(fn: () => void, options: { discrete: boolean }): void;
  getEditorState(): { toJSON(): LexicalDocument };
}

interface LinkedomDocument {
  createElement(name: string): LinkedomNode;
  createElementNS(namespace: string, name: string): LinkedomNode;
  createComment(data: string): LinkedomNode;
  createTextNode(data: string): LinkedomNode;
  createDocumentFragment(): LinkedomNode;
}

interface LinkedomNode {
  nodeType: number;
  data?: string;
  lastChild: LinkedomNode | null;
  previousSibling: LinkedomNode | null;
  appendChild(node: LinkedomNode): void;
  insertBefore(node: LinkedomNode, reference: LinkedomNode): void;
  remove(): void;
  setAttribute(name: string, value: string): void;
  hasAttribute(name: string): boolean;
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';

let libraries: Libraries | null = null;

function libs(): Libraries {
  if (libraries) return libraries;
  const { parseHTML } = require('linkedom') as { parseHTML: (html: string) => { document: LinkedomDocument } };
  const { DEFAULT_NODES, DEFAULT_CONFIG } = require('@tryghost/kg-default-nodes') as { DEFAULT_NODES: unknown[]; DEFAULT_CONFIG: { html: unknown } };
  const { HeadingNode, QuoteNode } = require('@lexical/rich-text') as Record<string, unknown>;
  const { ListItemNode, ListNode } = require('@lexical/list') as Record<string, unknown>;
  const { LinkNode } = require('@lexical/link') as Record<string, unknown>;
  const lexical = require('lexical') as Pick<Libraries, '$createParagraphNode' | '$getRoot'>;
  libraries = {
    parse: (require('parse5') as Pick<Libraries, 'parse'>).parse,
    // parse5 builds the document from the `<html>` element down; linkedom's own empty document has one already.
    newDocument: () => {
      const { document } = parseHTML('');
      (document as unknown as { documentElement: LinkedomNode | null }).documentElement?.remove();
      return document;
    },
    // The same nodes and configuration as kg-html-to-lexical's (basic html nodes first, then Koenig's).
    editorConfig: { nodes: [HeadingNode, LinkNode, ListItemNode, ListNode, QuoteNode, ...DEFAULT_NODES], html: DEFAULT_CONFIG.html },
    createHeadlessEditor: (require('@lexical/headless') as Pick<Libraries, 'createHeadlessEditor'>).createHeadlessEditor,
    registerDefaultTransforms: (require('@tryghost/kg-default-transforms') as Pick<Libraries, 'registerDefaultTransforms'>).registerDefaultTransforms,
    $createParagraphNode: lexical.$createParagraphNode,
    $getRoot: lexical.$getRoot,
    $generateNodesFromDOM: (require('@lexical/html') as Pick<Libraries, '$generateNodesFromDOM'>).$generateNodesFromDOM,
    $insertGeneratedNodes: (require('@lexical/clipboard') as Pick<Libraries, '$insertGeneratedNodes'>).$insertGeneratedNodes,
    ghostHtmlToLexical: htmlToLexicalConverter() as Libraries['ghostHtmlToLexical'],
  };
  return libraries;
}

/** html → lexical document, the same object Ghost's `htmlToLexical(html)` returns. */
export function htmlToLexicalDocument(html: string): LexicalDocument {
  const children = html ? directLexicalChildren(html.trim()) : null;
  if (children) return documentOf(children);
  const lib = libs();
  if (!html || !looksLight(html)) return lib.ghostHtmlToLexical(html);
  const document = parseBody(lib, html.trim());
  return hasLightContent(document.body) ? convertDocument(lib, document) : lib.ghostHtmlToLexical(html);
}

const documentOf = (children: LexicalJson[]): LexicalDocument => ({ root: { children, direction: null, format: '', indent: 0, type: 'root', version: 1 } });

/**
 * A large document's lexical (JSON text) when the direct converter takes it whole, else where to cut it for
 * converting in pieces (htmlBlockCuts). Whole, the document crosses to the thread once and its lexical back
 * once; the direct converter's time grows with the size, so pieces would only add copies and a scan.
 */
export function htmlToLexicalOrCuts(html: string): { lexical: string } | { cuts: number[] } {
  const whole = htmlToLexicalDocumentOrCuts(html);
  return 'cuts' in whole ? whole : { lexical: JSON.stringify(whole.document) };
}

/** htmlToLexicalOrCuts with the document itself, for a caller that goes on working on it (stored-content.ts). */
export function htmlToLexicalDocumentOrCuts(html: string): { document: LexicalDocument } | { cuts: number[] } {
  const children = html ? directLexicalChildren(html.trim()) : null;
  return children ? { document: documentOf(children) } : { cuts: htmlBlockCuts(html) };
}

/** Whether htmlToLexicalDocument converts `html` without a DOM (for the parity tests). */
export const convertsDirectly = (html: string): boolean => directLexicalChildren(html.trim()) !== null;

/** Whether htmlToLexicalDocument converts `html` with linkedom (for the parity tests). */
export const convertsWithLinkedom = (html: string): boolean => looksLight(html) && hasLightContent(parseBody(libs(), html.trim()).body);

/**
 * A quick look at the tags, before parsing: false means the markup is not plain (jsdom it is); true is only
 * a guess (`<` in an attribute value may hide anything), which hasLightContent settles on the parsed tree.
 */
function looksLight(html: string): boolean {
  if (html.includes('<!')) return false;
  for (const [, name, attributes] of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
    if (!LIGHT_ELEMENTS.has(name.toLowerCase())) return false;
    for (const [, attribute] of attributes.matchAll(/([^\s=/"']+)\s*(?:=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?/g)) {
      if (!LIGHT_ATTRIBUTES.has(attribute.toLowerCase())) return false;
    }
  }
  return true;
}

/** kg-html-to-lexical's steps, in its order, on a parsed document. */
function convertDocument(lib: Libraries, document: unknown): LexicalDocument {
  const editor = lib.createHeadlessEditor(lib.editorConfig);
  lib.registerDefaultTransforms(editor);
  editor.update(
    () => {
      // Ghost adds a paragraph so that inserting cannot throw, then removes it.
      const paragraph = lib.$createParagraphNode();
      lib.$getRoot().append(paragraph);
      const nodes = lib.$generateNodesFromDOM(editor, document);
      lib.$insertGeneratedNodes(editor, nodes, lib.$getRoot().select());
      paragraph.remove();
    },
    { discrete: true },
  );
  return editor.getEditorState().toJSON();
}

/** `<body>${html}</body>` parsed as jsdom parses it (parse5, scripting off), into a linkedom document. */
function parseBody(lib: Libraries, html: string): { body: LightNode } {
  return lib.parse(`<body>${html}</body>`, { treeAdapter: linkedomTreeAdapter(lib.newDocument()) });
}

/** True when every element and attribute below `body` is one whose conversion linkedom gives as jsdom does. */
function hasLightContent(body: LightNode): boolean {
  const stack: LightNode[] = [body];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === 8) return false; // comments: cards (`kg-card-begin`), `members-only`
    if (node.nodeType !== 1) continue;
    if (!LIGHT_ELEMENTS.has(node.localName!)) return false;
    const attributes = node.attributes!;
    for (let i = 0; i < attributes.length; i++) if (!LIGHT_ATTRIBUTES.has(attributes[i].name)) return false;
    const children = node.childNodes;
    for (let i = 0; i < children.length; i++) stack.push(children[i]);
  }
  return true;
}

/**
 * parse5's tree adapter building linkedom nodes: the parser decides the tree (implied ends, misnesting,
 * foster parenting) exactly as in jsdom, whose adapter this follows (text appended to a preceding text node).
 * Only what building needs is implemented; the getters parse5 also calls are answered from linkedom's DOM.
 */
function linkedomTreeAdapter(document: LinkedomDocument) {
  const textNode = (node: LinkedomNode | null) => (node && node.nodeType === 3 ? node : null);
  return {
    createDocument: () => document,
    createDocumentFragment: () => document.createDocumentFragment(),
    createElement(tagName: string, namespaceURI: string, attrs: { name: string; value: string }[]) {
      const element = namespaceURI === HTML_NS ? document.createElement(tagName) : document.createElementNS(namespaceURI, tagName);
      for (const { name, value } of attrs) element.setAttribute(name, value);
      return element;
    },
    createCommentNode: (data: string) => document.createComment(data),
    appendChild: (parent: LinkedomNode, node: LinkedomNode) => parent.appendChild(node),
    insertBefore: (parent: LinkedomNode, node: LinkedomNode, reference: LinkedomNode) => parent.insertBefore(node, reference),
    setTemplateContent: (template: LinkedomNode, content: LinkedomNode) => ((template as unknown as { content: LinkedomNode }).content = content),
    getTemplateContent: (template: LinkedomNode) => (template as unknown as { content: LinkedomNode }).content,
    setDocumentType: () => undefined,
    setDocumentMode: () => undefined,
    getDocumentMode: () => 'no-quirks',
    detachNode: (node: LinkedomNode) => node.remove(),
    insertText(parent: LinkedomNode, text: string) {
      const last = textNode(parent.lastChild);
      if (last) last.data += text;
      else parent.appendChild(document.createTextNode(text));
    },
    insertTextBefore(parent: LinkedomNode, text: string, reference: LinkedomNode) {
      const previous = textNode(reference.previousSibling);
      if (previous) previous.data += text;
      else parent.insertBefore(document.createTextNode(text), reference);
    },
    adoptAttributes(element: LinkedomNode, attrs: { name: string; value: string }[]) {
      for (const { name, value } of attrs) if (!element.hasAttribute(name)) element.setAttribute(name, value);
    },
    getFirstChild: (node: { firstChild: unknown }) => node.firstChild,
    getChildNodes: (node: { childNodes: unknown }) => node.childNodes,
    getParentNode: (node: { parentNode: unknown }) => node.parentNode,
    getAttrList: (element: { attributes: ArrayLike<{ name: string; value: string }> }) => Array.from(element.attributes, ({ name, value }) => ({ name, value })),
    getTagName: (element: { localName: string }) => element.localName,
    getNamespaceURI: (element: { namespaceURI?: string }) => element.namespaceURI ?? HTML_NS,
    getTextNodeContent: (node: { data: string }) => node.data,
    getCommentNodeContent: (node: { data: string }) => node.data,
    getDocumentTypeNodeName: () => 'html',
    getDocumentTypeNodePublicId: () => '',
    getDocumentTypeNodeSystemId: () => '',
    isTextNode: (node: { nodeType: number }) => node.nodeType === 3,
    isCommentNode: (node: { nodeType: number }) => node.nodeType === 8,
    isDocumentTypeNode: (node: { nodeType: number }) => node.nodeType === 10,
    isElementNode: (node: { nodeType: number }) => node.nodeType === 1,
    setNodeSourceCodeLocation: () => undefined,
    getNodeSourceCodeLocation: () => undefined,
    updateNodeSourceCodeLocation: () => undefined,
  };
}
