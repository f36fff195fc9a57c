import { documentOf, type CardRenderOptions } from './header-v1.js';

/**
 * Cards whose email variant Ghost 5.130.6 renders with its own templates (core/server/services/koenig), where
 * kg-default-nodes 2.0.1's email output differs: the button (a spaced table), the divider (a table Outlook
 * draws) and the html card (its segment wrapper). For the web they defer to the library's renderer.
 */

interface DecoratorNode {
  exportDOM(options: CardRenderOptions): unknown;
}
interface ButtonNode extends DecoratorNode {
  buttonUrl: string;
  buttonText: string;
  alignment: string;
}
interface HtmlNode extends DecoratorNode {
  html: string;
  visibility?: { web?: unknown; email?: { memberSegment?: string | null } } | null;
}
interface RenderElement {
  innerHTML: string;
  value?: string;
  setAttribute(name: string, value: string): void;
  classList: { add(name: string): void };
}
interface RenderDoc {
  createElement(tag: string): RenderElement;
}

const ALL_MEMBERS = 'status:free,status:-free';

function libraryRender(type: string, node: DecoratorNode, options: CardRenderOptions) {
  const { [type]: _skipped, ...others } = (options.nodeRenderers ?? {}) as Record<string, unknown>;
  return node.exportDOM({ ...options, nodeRenderers: others });
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

function inner(options: CardRenderOptions, html: string) {
  const element = (documentOf(options) as unknown as RenderDoc).createElement('div');
  element.innerHTML = html;
  return { element, type: 'inner' };
}

/** Ghost's email button: a `btn` table inside a card table whose cell spaces it from the text. */
export function renderButton(node: ButtonNode, options: CardRenderOptions) {
  if (options.target !== 'email' || !node.buttonUrl || node.buttonUrl.trim() === '') return libraryRender('button', node, options);
  const align = node.alignment ? ` align="${escapeAttr(node.alignment)}"` : '';
  return inner(
    options,
    `<table class="kg-card kg-button-card" border="0" cellpadding="0" cellspacing="0"><tbody><tr><td class="kg-card-spacing">` +
      `<table class="btn" border="0" cellspacing="0" cellpadding="0"${align}><tbody><tr><td align="center"><a href="${node.buttonUrl}">${node.buttonText}</a></td></tr></tbody></table>` +
      `</td></tr></tbody></table>`,
  );
}

/** Ghost's email divider: an `hr` for clients that show it, and a bordered table for Outlook. */
export function renderHorizontalRule(node: DecoratorNode, options: CardRenderOptions) {
  if (options.target !== 'email') return libraryRender('horizontalrule', node, options);
  return inner(
    options,
    `<table class="kg-card kg-hr-card" role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0"><tbody><tr><td>` +
      `<!--[if !mso]><!-- --><hr style="display: none;"><!--<![endif]-->` +
      `<table class="kg-hr" role="presentation" border="0" cellpadding="0" cellspacing="0"><tbody><tr><td>&nbsp;</td></tr></tbody></table>` +
      `</td></tr></tbody></table>`,
  );
}

/**
 * Ghost's html card in an email: shown to everyone, to nobody, or wrapped in a `data-gh-segment` block the email
 * renderer keeps only for that segment.
 */
export function renderHtml(node: HtmlNode, options: CardRenderOptions) {
  if (options.target !== 'email' || !node.html) return libraryRender('html', node, options);
  const doc = documentOf(options) as unknown as RenderDoc;
  const wrapped = `\n<!--kg-card-begin: html-->\n${node.html}\n<!--kg-card-end: html-->\n`;
  const segment = node.visibility?.email?.memberSegment;
  if (segment === undefined || segment === null || segment === ALL_MEMBERS) {
    const textarea = doc.createElement('textarea');
    textarea.value = wrapped;
    return { element: textarea, type: 'value' };
  }
  if (segment === '') return { element: doc.createElement('div'), type: 'inner' };
  const container = doc.createElement('div');
  container.innerHTML = wrapped;
  container.setAttribute('data-gh-segment', segment);
  container.classList.add('kg-visibility-wrapper');
  return { element: container, type: 'html' };
}
