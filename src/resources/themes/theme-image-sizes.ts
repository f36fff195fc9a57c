import type { Ctx } from '../../ctx.js';
import type { Storage } from '../../storage/storage.js';
import { activeThemeName, packageOfTheme } from './themes.service.js';

export interface ImageDimension {
  width?: number;
  height?: number;
}

/** How long one process trusts the sizes it read: activating or replacing a theme on any instance shows within this. */
const RECHECK_MS = 1000;
const kept = new WeakMap<Storage, { at: number; sizes: Promise<ImageDimension[]> }>();

/** The `config.image_sizes` of a theme's package.json that name a width or a height in pixels. */
export function imageSizesOf(pkg: Record<string, unknown> | false): ImageDimension[] {
  const config = pkg && pkg.config && typeof pkg.config === 'object' ? (pkg.config as Record<string, unknown>) : {};
  const sizes = config.image_sizes && typeof config.image_sizes === 'object' ? Object.values(config.image_sizes as Record<string, unknown>) : [];
  const pixels = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);
  return sizes.flatMap((size) => {
    const { width, height } = (size && typeof size === 'object' ? size : {}) as Record<string, unknown>;
    const dimension = { ...(pixels(width) ? { width: pixels(width) } : {}), ...(pixels(height) ? { height: pixels(height) } : {}) };
    return dimension.width || dimension.height ? [dimension] : [];
  });
}

/**
 * The active theme's image sizes, which `/content/images/size/…` makes beside Ghost's own (as Ghost merges
 * `image_sizes` into its list), read at most once a second per process and storage.
 */
export function activeThemeImageSizes(ctx: Ctx): Promise<ImageDimension[]> {
  const now = performance.now();
  const entry = kept.get(ctx.storage);
  if (entry && now - entry.at < RECHECK_MS) return entry.sizes;
  const sizes = (async () => imageSizesOf(await packageOfTheme(ctx, await activeThemeName(ctx))))();
  kept.set(ctx.storage, { at: now, sizes });
  sizes.catch(() => kept.get(ctx.storage)?.sizes === sizes && kept.delete(ctx.storage));
  return sizes;
}
