import { renderHeaderV1, type CardRenderOptions } from './header-v1.js';
import { renderButton, renderHorizontalRule, renderHtml } from './email-cards.js';

/**
 * Card renderers Ghost 5.130.6 substitutes for kg-default-nodes' own (core/server/services/koenig/node-renderers).
 * For the web (`target: 'html'`) every one of them produces the library's html except header v1, so only that
 * one is ours; the library renders the rest. For newsletters (`target: 'email'`) the button, divider and html
 * cards are ours too (email-cards.ts); the other cards' email variants are the library's.
 */

interface DecoratorNode {
  exportDOM(options: CardRenderOptions): unknown;
}

/** Renders a node with the library's own renderer for its version (no override for its type). */
function libraryRenderer(type: string) {
  return (node: DecoratorNode, options: CardRenderOptions) => {
    const { [type]: _skipped, ...others } = (options.nodeRenderers ?? {}) as Record<string, unknown>;
    return node.exportDOM({ ...options, nodeRenderers: others });
  };
}

export const ghostNodeRenderers: Record<string, unknown> = {
  button: renderButton,
  horizontalrule: renderHorizontalRule,
  html: renderHtml,
  header: {
    1: renderHeaderV1,
    2: libraryRenderer('header'),
  },
};
