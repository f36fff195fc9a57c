import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import type { UploadedFile } from '../../http/upload.js';
import { BadKeyError, checkKey } from '../../storage/storage.js';
import { freeKey, monthFolder, storedName } from '../../storage/upload-keys.js';

/** What the bytes of a media upload must be: audio or video, whatever the name says. */
export async function isAudioOrVideo(file: UploadedFile): Promise<boolean> {
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(file.path);
  return !!detected && /^(audio|video)\//.test(detected.mime);
}

/**
 * `POST /media/upload/` as Ghost's media storage saves it: `media/YYYY/MM/<free name>`, and a poster image
 * beside it named after the media file (`<name>_thumb.<ext>`). Returns both URLs.
 */
export async function uploadMedia(ctx: Ctx, file: UploadedFile, thumbnail: UploadedFile | undefined): Promise<{ url: string; thumbnailUrl: string | null }> {
  const folder = `media/${monthFolder(ctx.clock.now())}`;
  let thumbnailUrl: string | null = null;
  if (thumbnail) {
    const thumbName = `${path.parse(file.name).name}_thumb${path.extname(thumbnail.name).toLowerCase()}`;
    const thumbKey = await freeKey(ctx.storage, folder, thumbName);
    await ctx.storage.write(thumbKey, createReadStream(thumbnail.path));
    thumbnailUrl = ctx.storage.url(thumbKey);
  }
  const key = await freeKey(ctx.storage, folder, file.name);
  await ctx.storage.write(key, createReadStream(file.path));
  return { url: ctx.storage.url(key), thumbnailUrl };
}

/**
 * `PUT /media/thumbnail/upload/`: the poster of the media file at `mediaUrl`, stored beside it as
 * `<media name>_thumb.<ext>` and replacing an earlier one of that name, as Ghost does. The URL must name a file
 * of this site's media.
 */
export async function replaceMediaThumbnail(ctx: Ctx, mediaUrl: string | undefined, image: UploadedFile): Promise<string> {
  const mediaKey = mediaUrl === undefined ? null : mediaKeyOf(ctx, mediaUrl);
  if (!mediaKey) throw errors.validation({ message: 'Validation failed for url.', property: 'url' });
  const { base } = storedName(path.posix.basename(mediaKey));
  const key = `${path.posix.dirname(mediaKey)}/${base}_thumb${storedName(image.name).ext.toLowerCase()}`;
  await ctx.storage.write(key, createReadStream(image.path));
  return ctx.storage.url(key);
}

/** The storage key of a media URL of this site (absolute or site-relative), or null when it is none. */
function mediaKeyOf(ctx: Ctx, url: string): string | null {
  const probe = ctx.storage.url('media/x');
  const prefix = probe.slice(0, -'media/x'.length);
  let relative: string | null = null;
  if (url.startsWith(prefix)) relative = url.slice(prefix.length);
  else {
    const sitePath = `${new URL(ctx.site.url).pathname}content/`;
    if (url.startsWith(sitePath)) relative = url.slice(sitePath.length);
  }
  if (relative === null) return null;
  try {
    const key = checkKey(decodeURIComponent(relative.split(/[?#]/)[0]!));
    return key.startsWith('media/') ? key : null;
  } catch (err) {
    if (err instanceof BadKeyError || err instanceof URIError) return null;
    throw err;
  }
}
