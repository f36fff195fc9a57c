import path from 'node:path';
import { mobiledocLibs, type ImageOptimization } from './ghost-libs.js';

/** Ghost's `imageOptimization` config (core/shared/config defaults + overrides). */
export const IMAGE_OPTIMIZATION: ImageOptimization = {
  resize: true,
  srcsets: true,
  // Ghost resizes uploads to this width; gallery and mobiledoc image cards print the resized dimensions.
  defaultMaxWidth: 2000,
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

const cardsBySite = new Map<string, unknown[]>();

/**
 * Ghost's mobiledoc cards (kg-default-cards through kg-card-factory), configured for one site. The renderer
 * and the `__GHOST_URL__` transform both use them. Loaded on first use only: they cost ~35 MB and only
 * legacy mobiledoc posts need them.
 */
export function mobiledocCards(siteUrl: string | undefined): unknown[] {
  const key = siteUrl ?? '';
  let cards = cardsBySite.get(key);
  if (!cards) {
    const { CardFactory, cards: defaults } = mobiledocLibs();
    const factory = new CardFactory({ siteUrl, imageOptimization: IMAGE_OPTIMIZATION, canTransformImage });
    cards = defaults.map((card) => factory.createCard(card));
    cardsBySite.set(key, cards);
  }
  return cards;
}
