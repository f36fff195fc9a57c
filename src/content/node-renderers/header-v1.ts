/**
 * Header card, version 1. Ghost 5.130.6 replaces kg-default-nodes' DOM-built renderer with an html template
 * squeezed onto one line, which leaves a space inside the heading, subheading and button
 * (`<h2 …> Title </h2>`) and inserts the values as raw html. The output differs from the library's, so this
 * reproduces Ghost's template rule for rule.
 */

interface HeaderV1Node {
  size: string;
  style: string;
  buttonEnabled: boolean;
  buttonUrl: string;
  buttonText: string;
  header: string;
  subheader: string;
  backgroundImageSrc: string;
}

interface DomElement {
  innerHTML: string;
}

interface RenderDocument {
  createElement(tag: string): DomElement;
}

export interface CardRenderOptions {
  createDocument?: () => RenderDocument;
  dom?: { window: { document: RenderDocument } };
  [key: string]: unknown;
}

export function documentOf(options: CardRenderOptions): RenderDocument {
  if (options.createDocument) return options.createDocument();
  if (options.dom) return options.dom.window.document;
  throw new Error('card renderer needs `createDocument` or `dom`');
}

/** Ghost's `render-utils/slugify` for heading ids. */
function slugify(value: string): string {
  return value
    .replace(/<[^>]*>?/gm, '')
    .replace(/[^\w\s]/gi, '')
    .replace(/\s+/g, '-')
    .toLowerCase();
}

/** Ghost's `oneline`: newline+indent → one space, no whitespace between tags or before `>`. */
function oneline(value: string): string {
  return value
    .replace(/\n\s+/g, ' ')
    .replace(/>\s+</g, '><')
    .replace(/\s+>/g, '>')
    .trim();
}

/** Ghost's template interpolation: falsy values (a `false` condition) vanish. */
function html(strings: TemplateStringsArray, ...values: unknown[]): string {
  return oneline(strings.reduce((acc, str, i) => acc + str + ((values[i] as string) || ''), ''));
}

export function renderHeaderV1(node: HeaderV1Node, options: CardRenderOptions): { element: DomElement; type: 'inner' } {
  const document = documentOf(options);

  if (!node.header && !node.subheader && (!node.buttonEnabled || !node.buttonUrl || !node.buttonText)) {
    return { element: document.createElement('span'), type: 'inner' };
  }

  const buttonEnabled = node.buttonEnabled && Boolean(node.buttonUrl) && Boolean(node.buttonText);
  // Ghost calls `.replace(/(<br>)+$/g)` without a replacement, which substitutes the text "undefined";
  // kept as is because it decides whether the subheading is shown.
  const hasSubheader = !!node.subheader && !!node.subheader.replace(/(<br>)+$/g, 'undefined').trim();
  const backgroundImageStyle = node.style === 'image' ? `background-image: url(${node.backgroundImageSrc})` : '';

  const markup = html`
        <div
            class="kg-card kg-header-card kg-width-full kg-size-${node.size} kg-style-${node.style}"
            data-kg-background-image="${node.backgroundImageSrc}"
            style="${backgroundImageStyle}"
        >
            ${!!node.header && html`
                <h2 class="kg-header-card-header" id="${slugify(node.header)}">
                    ${node.header}
                </h2>
            `}
            ${hasSubheader && html`
                <h3 class="kg-header-card-subheader" id="${slugify(node.subheader)}">
                    ${node.subheader}
                </h3>
            `}
            ${buttonEnabled && html`
                <a class="kg-header-card-button" href="${node.buttonUrl}">
                    ${node.buttonText}
                </a>
            `}
        </div>
    `;

  const element = document.createElement('div');
  element.innerHTML = markup;
  return { element, type: 'inner' };
}
