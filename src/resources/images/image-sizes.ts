import path from 'node:path';
import type { FormatEnum } from 'sharp';
import type { Storage } from '../../storage/storage.js';
import { MissingFileError } from '../../storage/storage.js';
import { originalKey } from '../../storage/upload-keys.js';

/** sharp (libvips) is loaded on first use: it costs start-up time that a process serving no images never needs. */
export const loadSharp = async () => (await import('sharp')).default;

interface Dimension {
  width?: number;
  height?: number;
}

/**
 * The sizes Ghost serves under `/content/images/size/<dimension>/` (`imageOptimization` in its config): the
 * content sizes post html links in `srcset`, and the internal ones (site icon, e-mail images). The active
 * theme's `image_sizes` join them (`themes/theme-image-sizes.ts`, passed as `extraSizes`).
 */
const GHOST_SIZES: readonly Dimension[] = [
  { width: 600 },
  { width: 1000 },
  { width: 1600 },
  { width: 2400 },
  { width: 256, height: 256 },
  { width: 192, height: 192 },
  { width: 64, height: 64 },
  { width: 1200 },
  { width: 200, height: 200 },
  { width: 1200, height: 960 },
];

const dimensionName = ({ width, height }: Dimension) => (width ? `w${width}` : '') + (height ? `h${height}` : '');

/** What `@tryghost/image-transform` converts to. */
const FORMATS = new Set(['gif', 'jpeg', 'jpg', 'png', 'webp', 'avif']);
/** Icons and vector images are served as they are. */
const NOT_RESIZED = new Set(['.ico', '.svg', '.svgz']);
const RESIZE_TIMEOUT_SECONDS = 10;

export interface SizedRequest {
  dimension: string;
  format: string | null;
  /** The original's key, `images/…`. */
  original: string;
  /** Where the sized copy is stored: the request's own path, `images/size/…`. */
  key: string;
}

/** `size/w600/2026/01/a.jpg` or `size/w600/format/webp/2026/01/a.jpg` under `images/`; null for any other path. */
export function parseSizedPath(rest: string): SizedRequest | null {
  const match = /^size\/([^/]+)\/(?:format\/([^./]+)\/)?(.+)$/.exec(rest);
  if (!match || !path.posix.extname(match[3]!)) return null;
  return { dimension: match[1]!, format: match[2] ?? null, original: `images/${match[3]}`, key: `images/${rest}` };
}

/**
 * Whether Ghost would make this size, or answer with a redirect to the original: a dimension it does not
 * list, a format it does not convert to, an icon or a vector image.
 */
export function canMakeSize(request: SizedRequest, extraSizes: readonly Dimension[] = []): boolean {
  const known = [...extraSizes, ...GHOST_SIZES].some((size) => dimensionName(size) === request.dimension);
  if (!known) return false;
  if (request.format && !FORMATS.has(request.format)) return false;
  return !NOT_RESIZED.has(path.posix.extname(request.original).toLowerCase());
}

const dimensionOf = (name: string): Dimension => {
  const match = /^(?:w(\d+))?(?:h(\d+))?$/.exec(name);
  return { ...(match?.[1] ? { width: Number(match[1]) } : {}), ...(match?.[2] ? { height: Number(match[2]) } : {}) };
};

/**
 * Makes the sized copy once and stores it under the request's own key, from the untouched `_o` original when
 * there is one. Several instances may each make it at the same moment; the store replaces a file whole (a
 * rename on disk, one PUT on S3), so each writes a complete copy. Rejects with `MissingFileError` when the
 * image does not exist.
 */
export function ensureSize(storage: Storage, request: SizedRequest): Promise<void> {
  // Requests for a size not made yet share one making of it: the first visitors of a new post's images come
  // together, and each resizing on its own would multiply the work and write the same object several times
  // (a reader could then see an object store's half-written copy).
  let making = sizesBeingMade.get(request.key);
  if (!making) {
    making = makeSize(storage, request).finally(() => sizesBeingMade.delete(request.key));
    sizesBeingMade.set(request.key, making);
  }
  return making;
}

const sizesBeingMade = new Map<string, Promise<void>>();

async function makeSize(storage: Storage, request: SizedRequest): Promise<void> {
  if (await storage.exists(request.key)) return;
  const source = (await storage.exists(originalKey(request.original))) ? originalKey(request.original) : request.original;
  const input = await readAll(storage, source);
  const { width, height } = dimensionOf(request.dimension);
  const sharp = await loadSharp();
  let image = sharp(input, { animated: true, failOn: 'none' })
    .timeout({ seconds: RESIZE_TIMEOUT_SECONDS })
    .rotate()
    .resize({ width, height, withoutEnlargement: true });
  if (request.format) image = image.toFormat((request.format === 'jpg' ? 'jpeg' : request.format) as keyof FormatEnum);
  const resized = await image.toBuffer();
  // As Ghost's image-transform: a same-format "resize" that came out bigger keeps the original bytes.
  await storage.write(request.key, !request.format && resized.length > input.length ? input : resized);
}

async function readAll(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  if (bytes.length === 0) throw new MissingFileError(key);
  return bytes;
}
