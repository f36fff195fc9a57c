import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Metadata } from 'sharp';
import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import type { UploadedFile } from '../../http/upload.js';
import { freeKey, monthFolder, originalKey } from '../../storage/upload-keys.js';
import { extensionOf, isServerFault } from '../../http/upload.js';
import { sanitiseSvg } from './svg-sanitise.js';
import { loadSharp } from './image-sizes.js';

export type ImagePurpose = 'image' | 'profile_image' | 'icon';

/** Ghost resizes uploads wider than this (`imageOptimization.defaultMaxWidth`), keeping the original as `_o`. */
const MAX_WIDTH = 2000;
/** Raster formats sharp reads, by what the bytes say (not the name). */
const RASTER = new Set(['jpg', 'png', 'gif', 'webp']);
const ICON_LIMIT = 20_000_000;
const ICO_LIMIT = 200 * 1024;
const ICON_MESSAGE = 'Icon must be a .jpg, .webp, .svg or .png file, at least 60x60px, under 20MB.';
const ICO_MESSAGE = 'Ico icons must be square, at least 60x60px, and under 200kB.';

const processingFailed = (context: string) => errors.badRequest({ message: 'Image processing failed', context, help: 'Please verify that the image is valid' });

/**
 * An SVG upload sanitised as Ghost's upload middleware does; null when nothing of an image is left. Other
 * images pass unchanged (their bytes are checked by `uploadImage`).
 */
export async function sanitisedSvgOf(file: UploadedFile): Promise<Buffer | null | undefined> {
  const ext = extensionOf(file.name);
  if (ext !== '.svg' && ext !== '.svgz') return undefined;
  try {
    const raw = await readFile(file.path);
    const clean = await sanitiseSvg((ext === '.svgz' ? gunzipSync(raw, { maxOutputLength: 50 * 1024 * 1024 }) : raw).toString('utf8'));
    if (clean === null) return null;
    return ext === '.svgz' ? gzipSync(clean) : Buffer.from(clean);
  } catch {
    return null;
  }
}

/**
 * Stores an image as Ghost's images.upload does: `images/YYYY/MM/<name>`, a free name, a raster image resized
 * to at most 2000 px wide with its untouched original beside it as `<name>_o.<ext>`, an SVG sanitised, an icon
 * stored as it came. The type is taken from the bytes: a file whose bytes are no image is refused whatever its
 * name says. Returns the public URL.
 */
export async function uploadImage(ctx: Ctx, file: UploadedFile, purpose: ImagePurpose, svg: Buffer | undefined): Promise<string> {
  const folder = `images/${monthFolder(ctx.clock.now())}`;
  if (svg) {
    if (purpose === 'icon' && svg.length > ICON_LIMIT) throw errors.validation(ICON_MESSAGE);
    const key = await freeKey(ctx.storage, folder, file.name);
    await ctx.storage.write(key, svg);
    return ctx.storage.url(key);
  }

  // Loaded on first upload: these libraries cost start-up time that most processes never need.
  const { fileTypeFromFile } = await import('file-type');
  const sharp = await loadSharp();
  const detected = await fileTypeFromFile(file.path);
  if (detected?.ext === 'ico') return uploadIcon(ctx, file, purpose, folder);
  if (!detected || !RASTER.has(detected.ext)) throw processingFailed('Unable to manipulate image.');

  let meta: Metadata;
  try {
    meta = await sharp(file.path).metadata();
  } catch (err) {
    if (isServerFault(err)) throw err;
    throw processingFailed((err as Error).message);
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (purpose === 'profile_image' && width !== height) throw errors.validation({ message: 'Please select a valid image file with square dimensions.' });
  if (purpose === 'icon' && (file.size > ICON_LIMIT || width < 60 || height < 60)) throw errors.validation(ICON_MESSAGE);

  const resizedPath = `${file.path}.resized`;
  try {
    await sharp(file.path, { animated: true }).rotate().resize({ width: MAX_WIDTH, withoutEnlargement: true }).toFile(resizedPath);
  } catch (err) {
    // Writing the resized copy can fail for want of space: the server's fault, not the image's.
    if (isServerFault(err)) throw err;
    throw processingFailed((err as Error).message);
  }
  // As Ghost's image-transform: when "resizing" made the file bigger (already small and well compressed), keep the upload.
  const smaller = (await stat(resizedPath)).size < file.size ? resizedPath : file.path;
  const key = await freeKey(ctx.storage, folder, file.name);
  await ctx.storage.write(key, createReadStream(smaller));
  await ctx.storage.write(originalKey(key), createReadStream(file.path));
  return ctx.storage.url(key);
}

async function uploadIcon(ctx: Ctx, file: UploadedFile, purpose: ImagePurpose, folder: string): Promise<string> {
  if (purpose === 'icon') {
    const { width, height } = icoSize(await readFile(file.path));
    if (file.size > ICO_LIMIT || width !== height || width < 60 || width > 1000) throw errors.validation(ICO_MESSAGE);
  }
  if (purpose === 'profile_image') {
    const { width, height } = icoSize(await readFile(file.path));
    if (width !== height) throw errors.validation({ message: 'Please select a valid image file with square dimensions.' });
  }
  const key = await freeKey(ctx.storage, folder, file.name);
  await ctx.storage.write(key, createReadStream(file.path));
  return ctx.storage.url(key);
}

/** The largest image an .ico holds (its directory lists each; 0 stands for 256 px). libvips reads no .ico. */
function icoSize(bytes: Buffer): { width: number; height: number } {
  const count = bytes.length >= 6 ? bytes.readUInt16LE(4) : 0;
  let width = 0;
  let height = 0;
  for (let i = 0; i < count && 6 + 16 * (i + 1) <= bytes.length; i++) {
    const w = bytes[6 + 16 * i] || 256;
    const h = bytes[7 + 16 * i] || 256;
    if (w * h > width * height) [width, height] = [w, h];
  }
  if (!width) throw processingFailed('Unable to read the icon.');
  return { width, height };
}
